// Small stroke icons (decorative: every control that shows one also has a text name).
import type { ReactNode } from 'react';

function Icon({ children, size = 16 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const ClockIcon = () => (
  <Icon>
    <circle cx="8" cy="8" r="6.25" />
    <path d="M8 4.5V8l2.5 1.5" />
  </Icon>
);
export const AlertIcon = () => (
  <Icon>
    <path d="M8 1.75 15 14H1L8 1.75Z" />
    <path d="M8 6.25v3.5M8 11.75v.01" />
  </Icon>
);
export const StopIcon = () => (
  <Icon>
    <path d="M5.2 1.5h5.6l3.7 3.7v5.6l-3.7 3.7H5.2l-3.7-3.7V5.2l3.7-3.7Z" />
    <path d="M8 4.75v3.75M8 11v.01" />
  </Icon>
);
export const TerminalIcon = () => (
  <Icon>
    <rect x="1.5" y="2.5" width="13" height="11" rx="2" />
    <path d="m4.5 6 2 2-2 2M8.5 10.5h3" />
  </Icon>
);
export const FileIcon = () => (
  <Icon>
    <path d="M9 1.75H4.25a1.5 1.5 0 0 0-1.5 1.5v9.5a1.5 1.5 0 0 0 1.5 1.5h7.5a1.5 1.5 0 0 0 1.5-1.5V6L9 1.75Z" />
    <path d="M9 1.75V6h4.25" />
  </Icon>
);
export const ChevronLeft = () => (
  <Icon>
    <path d="m10 3.5-4.5 4.5 4.5 4.5" />
  </Icon>
);
export const ChevronRight = () => (
  <Icon>
    <path d="m6 3.5 4.5 4.5L6 12.5" />
  </Icon>
);
export const KeyboardIcon = () => (
  <Icon>
    <rect x="1.25" y="3.75" width="13.5" height="8.5" rx="1.5" />
    <path d="M4 6.5h.01M6.5 6.5h.01M9 6.5h.01M11.5 6.5h.01M5 9.5h6" />
  </Icon>
);
export const LockIcon = () => (
  <Icon>
    <rect x="3.25" y="7.25" width="9.5" height="6.5" rx="1.25" />
    <path d="M5.5 7.25V5a2.5 2.5 0 0 1 5 0v2.25" />
  </Icon>
);
export const ShieldIcon = () => (
  <Icon>
    <path d="M8 1.5 2.75 3.5v4.25c0 3.1 2.2 5.6 5.25 6.75 3.05-1.15 5.25-3.65 5.25-6.75V3.5L8 1.5Z" />
  </Icon>
);
export const ArrowRight = () => (
  <Icon>
    <path d="M2.5 8h11M9.5 4l4 4-4 4" />
  </Icon>
);
export const ExternalIcon = () => (
  <Icon>
    <path d="M9.5 2.5h4v4M13.5 2.5 7.5 8.5M12 9.5v3a1 1 0 0 1-1 1H3.5a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h3" />
  </Icon>
);
export const UsersIcon = () => (
  <Icon>
    <circle cx="6" cy="5.5" r="2.25" />
    <path d="M1.75 13.5c.4-2.3 2.1-3.75 4.25-3.75s3.85 1.45 4.25 3.75" />
    <path d="M10.5 3.4a2.25 2.25 0 0 1 0 4.2M12 9.9c1.2.5 2 1.7 2.25 3.6" />
  </Icon>
);
