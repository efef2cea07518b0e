/**
 * The kernels of the relayout engine (not exported), and the one record of which kernel takes
 * which loop nest: {@link dev.tegula.vector.kernels.Kernel}. Each kernel works on byte segments with
 * offsets and strides in elements, knows nothing of plans, and notes in
 * {@link dev.tegula.vector.kernels.KernelTrace} that it ran.
 */
package dev.tegula.vector.kernels;
