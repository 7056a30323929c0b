// The health command's route, kept apart from the contract's table (which declares the command with
// it) so that the server can answer /api/health while the core starts, before the contract's schemas
// are built.
export const HEALTH_ROUTE = { method: 'GET', path: '/api/health' } as const;
