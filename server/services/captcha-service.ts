import { createHash, timingSafeEqual } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { CaptchaImage } from '../../common/api/types';
import type { CaptchaRepository } from '../repositories/captcha-repository';
import { newId } from '../ids';
import { drawCaptcha } from './captcha-image';

function answerHash(captchaId: string, answer: string): string {
  // Bound to the id so equal answers of different captchas hash differently.
  return createHash('sha256').update(`${captchaId}:${answer.trim().toLowerCase()}`).digest('hex');
}

export interface CaptchaServiceOptions {
  ttlMs: number;
  /** Test hook: file that receives {captchaId, answer} lines; undefined in normal operation. */
  outboxFile: string | undefined;
}

export class CaptchaService {
  constructor(
    private readonly repo: CaptchaRepository,
    private readonly options: CaptchaServiceOptions,
  ) {}

  async issue(now = Date.now()): Promise<CaptchaImage> {
    const captcha = drawCaptcha();
    const captchaId = newId();
    await this.repo.insert(captchaId, answerHash(captchaId, captcha.text), now + this.options.ttlMs);
    if (this.options.outboxFile) {
      await fsp.mkdir(path.dirname(this.options.outboxFile), { recursive: true });
      await fsp.appendFile(this.options.outboxFile, JSON.stringify({ captchaId, answer: captcha.text }) + '\n');
    }
    return {
      captchaId,
      image: `data:image/svg+xml;base64,${Buffer.from(captcha.svg).toString('base64')}`,
      expiresIn: Math.floor(this.options.ttlMs / 1000),
    };
  }

  /** Checks an answer and uses the captcha up, right or wrong: a captcha never answers twice. */
  async consume(captchaId: string, answer: string, now = Date.now()): Promise<boolean> {
    const stored = await this.repo.consume(captchaId, now);
    if (!stored) return false;
    return timingSafeEqual(Buffer.from(stored, 'hex'), Buffer.from(answerHash(captchaId, answer), 'hex'));
  }

  /**
   * `/spacex/captcha/validate`: a wrong answer uses the captcha up (no guessing against it); a right
   * one leaves it usable once more, by the login or SMS send it was solved for. It is consumed and then
   * re-armed, so two racing checks cannot both guess.
   */
  async validate(captchaId: string, answer: string, now = Date.now()): Promise<boolean> {
    const ok = await this.consume(captchaId, answer, now);
    if (ok) await this.repo.rearm(captchaId, now);
    return ok;
  }
}
