/**
 * The subcommands that look at shapes and files: {@code inspect} (a shape or a tensor file as a
 * report), {@code map} (where each element sits, as text, PNG or SVG) and {@code convert} (tensor
 * files between layouts), with the reports they print (of a shape, of a tensor file) and the reading
 * of their shape arguments. Each command parses its arguments,
 * calls the library and formats the answer; bad input is a
 * {@link dev.tegula.cli.BadInputException}. Must not compute index math or read file formats
 * itself (core and io do).
 */
package dev.tegula.cli.commands;
