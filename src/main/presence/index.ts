// Presence: how pending requests reach a person outside the dialog (notifications, tray). The
// models are decided here, under plain Node; src/main/desktop only renders them.
export { ActivationTokens, type Activation } from './activation-tokens';
export {
  DESKTOP_CLIENT_ID,
  desktopCaller,
  ensureDesktopClient,
  presenceVote,
  type PresenceVoteResult,
} from './callers';
export {
  FreedesktopNotifier,
  type FreedesktopNotifierOptions,
  type ServerInformation,
} from './freedesktop-notifier';
export {
  GROUP_KEY,
  NotificationPlanner,
  groupNotification,
  requestActions,
  requestReply,
  replyVote,
  requestNotification,
  type ActionVote,
  type NotificationAction,
  type NotificationActionId,
  type NotificationCommand,
  type NotificationIntent,
  type NotificationModel,
  type NotificationReply,
} from './notification-plan';
export {
  NotificationPresence,
  type CloseReason,
  type Notifier,
  type NotifierListener,
  type NotificationPresenceOptions,
} from './notification-presence';
export { toastXml, xmlEscape } from './toast-xml';
export {
  trayModel,
  type TrayAction,
  type TrayMenuItem,
  type TrayModel,
  type TrayView,
} from './tray-model';
export { safeLine } from './text';
