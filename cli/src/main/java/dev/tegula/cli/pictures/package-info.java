/**
 * Pictures of a layout: the grid model {@link dev.tegula.cli.pictures.LayoutGrid} (the slot of
 * each element of a shape seen as 2-D slices, tile boundaries, padding, and the
 * {@link dev.tegula.cli.pictures.LayoutGrid.Figure} of one slice), drawn as terminal text
 * ({@link dev.tegula.cli.pictures.GridPicture}) or on a PNG or SVG
 * {@link dev.tegula.cli.pictures.Canvas} ({@link dev.tegula.cli.pictures.MapRenderer}). Every slot
 * comes from core's index math; nothing here computes an address. Must not depend on the commands.
 */
package dev.tegula.cli.pictures;
