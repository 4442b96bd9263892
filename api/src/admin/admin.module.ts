import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import type { AppConfig } from '@sparks/core';
import { CONFIG } from '@sparks/nest';
import { AuthModule } from '../auth/auth.module';
import { jwtOptions } from '../auth/jwt-options';
import { AdminController } from './admin.controller';
import { AdminService } from './admin.service';

@Module({
  imports: [
    AuthModule,
    JwtModule.registerAsync({
      inject: [CONFIG],
      useFactory: (config: AppConfig) => jwtOptions(config.JWT_SECRET, 'admin-session'),
    }),
  ],
  controllers: [AdminController],
  providers: [AdminService],
  exports: [AdminService],
})
export class AdminModule {}
