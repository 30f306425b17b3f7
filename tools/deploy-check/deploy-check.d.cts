/** Types of deploy-check.cjs, for the spec. */
export interface CheckResult {
  name: string;
  /** One line each; empty when the check passes. */
  problems: string[];
}

export interface CheckOptions {
  /** Holds apps/ and libs/, read for the variables and paths the apps use; the repository by default. */
  root?: string;
  k8sDir?: string;
  dockerfile?: string;
  composeFile?: string;
  composeSchema?: string;
}

export function runChecks(options?: CheckOptions): Promise<CheckResult[]>;
