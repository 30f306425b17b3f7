'use strict';
/** Lint rules for the Dockerfile that builds every app's image. */
const { DockerfileParser } = require('dockerfile-ast');
const { existsSync, readFileSync } = require('node:fs');
const { basename } = require('node:path');

/** An exact release: `22.11.0`, `22.11.0-bookworm-slim`; not `22`, `22-bookworm-slim`, `lts` or `latest`. */
const EXACT_VERSION = /^v?\d+\.\d+\.\d+([-_.+][\w.-]*)?$/;

/** `${NAME}`, `${NAME:-default}` and `$NAME` replaced by the ARG values in effect at `line`; unknown ones by `*`. */
function expand(dockerfile, text, line) {
  return text.replace(/\$\{(\w+)(?::?-([^}]*))?\}|\$(\w+)/g, (_, braced, fallback, bare) => {
    const value = dockerfile.resolveVariable(braced ?? bare, line);
    return value ?? fallback ?? '*';
  });
}

const wildcard = (pattern) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

/** `registry:5000/name:tag@sha256:…` → its tag and digest. */
function imageReference(image) {
  const [withoutDigest, digest] = image.split('@');
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.indexOf(':', lastSlash + 1);
  return { tag: colon === -1 ? undefined : withoutDigest.slice(colon + 1), digest };
}

/** The ARGs the builder declares itself, in scope everywhere (`FROM --platform=$BUILDPLATFORM …`). */
const PLATFORM_ARGS = ['BUILDPLATFORM', 'BUILDOS', 'BUILDARCH', 'BUILDVARIANT', 'TARGETPLATFORM', 'TARGETOS', 'TARGETARCH', 'TARGETVARIANT'];

const isRoot = (user) => ['', 'root', '0'].includes(String(user).split(':')[0].trim());

/**
 * `dockerfile`: every variable a FROM uses declared by an ARG before the first FROM (an ARG inside a stage is not
 * seen by any FROM: `FROM app-${APP}` would name `app-`), base images pinned to an exact version (or a digest), the
 * final stage runs as a non-root USER,
 * CMD/ENTRYPOINT in exec form, no ADD of URLs, `apt-get install` with --no-install-recommends and its lists removed in
 * the same RUN, no sudo, absolute WORKDIRs.
 */
function checkDockerfile(file) {
  if (!existsSync(file)) {
    return [`${file} does not exist`];
  }
  const name = basename(file);
  const dockerfile = DockerfileParser.parse(readFileSync(file, 'utf8'));
  const problems = [];
  const at = (instruction) => `${name}:${instruction.getRange().start.line + 1}`;
  const froms = dockerfile.getFROMs();
  const instructions = dockerfile.getInstructions();

  // Stages in order, each with its instructions and what it is built from.
  const stages = froms.map((from, index) => {
    const line = from.getRange().start.line;
    const next = froms[index + 1]?.getRange().start.line ?? Infinity;
    return {
      from,
      name: from.getBuildStage()?.toLowerCase(),
      image: expand(dockerfile, from.getImage() ?? '', line),
      instructions: instructions.filter((instruction) => instruction.getRange().start.line > line && instruction.getRange().start.line < next),
    };
  });
  const parentsOf = (stage, index) => {
    const pattern = wildcard(stage.image.toLowerCase());
    return stages.slice(0, index).filter((earlier) => earlier.name && pattern.test(earlier.name));
  };

  // Only the ARGs before the first FROM are in scope on a FROM line (Docker's UndefinedArgInFrom, podman's
  // "invalid reference format"): anything else expands to the empty string there.
  const globalArgs = new Set([...PLATFORM_ARGS, ...dockerfile.getInitialARGs().map((arg) => arg.getProperty()?.getName())]);
  for (const from of froms) {
    for (const variable of from.getVariables()) {
      if (!globalArgs.has(variable.getName())) {
        problems.push(
          `${at(from)}: FROM ${from.getImage()}: \${${variable.getName()}} is not declared by an ARG before the first FROM, so it is empty here; declare it there (ARG ${variable.getName()})`,
        );
      }
    }
  }

  stages.forEach((stage, index) => {
    if (stage.image === 'scratch' || parentsOf(stage, index).length > 0) {
      return;
    }
    const { tag, digest } = imageReference(stage.image);
    if (stage.image.includes('*')) {
      problems.push(`${at(stage.from)}: FROM ${stage.from.getImage()}: base image cannot be resolved (give its ARG a default)`);
    } else if (digest) {
      return;
    } else if (tag === undefined || tag === 'latest') {
      problems.push(`${at(stage.from)}: FROM ${stage.image}: base image uses ${tag ?? 'no tag (latest)'}; pin an exact version`);
    } else if (!EXACT_VERSION.test(tag)) {
      problems.push(`${at(stage.from)}: FROM ${stage.image}: base image is not pinned to an exact version (like node:22.11.0-bookworm-slim)`);
    }
  });

  // The user the final stage runs as: its last USER, else its parent stage's, else the base image's (root).
  const userOf = (stage, index, seen = new Set()) => {
    const users = stage.instructions.filter((instruction) => instruction.getKeyword() === 'USER');
    if (users.length > 0) {
      return [expand(dockerfile, users.at(-1).getArgumentsContent() ?? '', users.at(-1).getRange().start.line)];
    }
    const parents = parentsOf(stage, index).filter((parent) => !seen.has(parent));
    return parents.length === 0 ? ['root'] : parents.flatMap((parent) => userOf(parent, stages.indexOf(parent), new Set([...seen, parent])));
  };
  const final = stages.at(-1);
  if (final && userOf(final, stages.length - 1).some(isRoot)) {
    problems.push(`${at(final.from)}: the final stage runs as root; add a non-root USER (e.g. USER 1000:1000)`);
  }

  for (const instruction of instructions) {
    const keyword = instruction.getKeyword();
    const args = instruction.getRawArgumentsContent() ?? '';
    if ((keyword === 'CMD' || keyword === 'ENTRYPOINT') && !isExecForm(args)) {
      problems.push(`${at(instruction)}: ${keyword} in shell form; use the exec form (["node", "main.js"]) so signals reach the process`);
    }
    if (keyword === 'ADD' && /(^|\s)(https?:\/\/|git@|git:\/\/)/.test(args)) {
      problems.push(`${at(instruction)}: ADD of a URL; download in a RUN with a checksum, or COPY`);
    }
    if (keyword === 'RUN') {
      if (/\bsudo\b/.test(args)) {
        problems.push(`${at(instruction)}: RUN uses sudo`);
      }
      if (/\bapt(-get)?\s+(-\S+\s+)*install\b/.test(args)) {
        if (!/--no-install-recommends/.test(args)) {
          problems.push(`${at(instruction)}: apt-get install without --no-install-recommends`);
        }
        if (!/rm\s+-(rf|fr)\s+\/var\/lib\/apt\/lists/.test(args)) {
          problems.push(`${at(instruction)}: apt-get install without rm -rf /var/lib/apt/lists/* in the same RUN`);
        }
      }
    }
    if (keyword === 'WORKDIR' && !expand(dockerfile, args.trim(), instruction.getRange().start.line).startsWith('/')) {
      problems.push(`${at(instruction)}: WORKDIR ${args.trim()} is not absolute`);
    }
  }
  return problems;
}

function isExecForm(args) {
  try {
    const parsed = JSON.parse(args.replace(/\\\r?\n/g, ' '));
    return Array.isArray(parsed) && parsed.every((part) => typeof part === 'string');
  } catch {
    return false;
  }
}

module.exports = { checkDockerfile };
