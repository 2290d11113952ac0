/** The throwaway PostgreSQL of the test suites: moved to server/cluster/ so `npm run start:cluster` starts the same one. */
export { postgresBinDir, startPostgresCluster, type ClusterOptions, type PostgresCluster } from '../../server/cluster/postgres-cluster';
