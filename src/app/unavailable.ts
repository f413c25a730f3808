/**
 * What an adapter needs to answer "Rampart cannot reach its database" the same way everywhere:
 * whether an error is Redis being unreachable or slow, and its sentence. The classification is
 * the store's (it knows ioredis' errors); adapters reach it through app, never store/.
 */
export { describeRedisFailure, REDIS_NO_ANSWER_TEXT, type RedisFailure, redisFailure } from '../store/redis-errors.js';
