import { Global, Module } from '@nestjs/common';
import { ConsoleAccessService } from './console-access.service';

/** The console's authorization, for every module of identity that answers console patterns. */
@Global()
@Module({ providers: [ConsoleAccessService], exports: [ConsoleAccessService] })
export class ConsoleAccessModule {}
