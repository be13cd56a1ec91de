/** Told when a model call starts and ends (a host shows "thinking…" while one waits long). */
export interface ModelActivity {
  started(): void;
  finished(): void;
}
