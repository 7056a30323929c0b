// The preview of a command, as the request path sees it.
export {
  createPreviewer,
  PreviewRun,
  type Previewer,
  type PreviewerDeps,
  type PreviewSandbox,
} from './previewer';
