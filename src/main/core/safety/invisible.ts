// Moved to src/shared/ (pure, no Node) so the renderer shows invisible characters the same way.
export * from '../../../shared/invisible';
