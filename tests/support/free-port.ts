export { freePort } from '../../server/cluster/free-port';
