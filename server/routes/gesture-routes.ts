import type { FastifyInstance } from 'fastify';
import { GESTURE } from '../../common/api/endpoints/gesture';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { GestureService } from '../services/gesture-service';

/** 手势密码: the caller's own pattern (declared in common/api/endpoints/gesture.ts). */
export function registerGestureRoutes(app: FastifyInstance, gestures: GestureService): void {
  route(app, GESTURE.status, async (request) => ({ data: await gestures.status(callerOf(request)) }));
  route(app, GESTURE.set, async (request) => ({ data: await gestures.set(callerOf(request), request.body.pattern) }));
  route(app, GESTURE.clear, async (request) => ({ data: await gestures.clear(callerOf(request)) }));
  route(app, GESTURE.lock, async (request) => ({ data: await gestures.lock(callerOf(request)) }));
  route(app, GESTURE.verify, async (request) => ({ data: await gestures.verify(callerOf(request), request.body.pattern) }));
}
