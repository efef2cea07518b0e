/**
 * The {@code tegula} command: {@link dev.tegula.cli.Main} (picocli, exit statuses 0, 1 and 2), the
 * bad-input exception every command throws, and small text helpers: file-error reasons, text from
 * files made safe for a terminal, and the help layout that never breaks a shape (byte counts come
 * from io's {@code ByteCounts}). Subcommands live in
 * {@code commands} and {@code bench}, drawing in {@code pictures}. Presentation only: a fact about
 * a shape or a layout that a library user would also want belongs in {@code core} (or the module
 * that owns it), not here. Nothing depends on this module.
 */
package dev.tegula.cli;
