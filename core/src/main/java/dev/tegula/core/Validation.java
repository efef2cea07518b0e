package dev.tegula.core;

/**
 * How strictly a shape is checked (see {@code docs/validation.md}).
 *
 * <ul>
 *   <li>{@link #NONE}: what XLA's HLO parser accepts; nothing else is checked.</li>
 *   <li>{@link #XLA}: XLA's {@code ShapeUtil::ValidateShape} and {@code LayoutUtil::ValidateLayoutForShape},
 *       in XLA's order, with XLA's messages.</li>
 *   <li>{@link #STRICT}: {@code XLA} plus everything XLA would crash on or leave undefined, and what
 *       Tegula needs to address memory: a trailing {@code *} in a tile, {@code E(n)} narrower than the
 *       type or not packable, memory space outside 0..127, legacy padding combined with tiles, a padded
 *       buffer size that overflows. Every shape Tegula builds through its public factories is STRICT-valid.</li>
 * </ul>
 */
public enum Validation {
    NONE, XLA, STRICT;

    /**
     * Checks a shape at this level.
     *
     * @throws IllegalArgumentException naming the field and value of the first problem found
     */
    public void check(Shape shape) {
        String p = problem(shape);
        if (p != null) {
            throw new IllegalArgumentException(p);
        }
    }

    /** {@return the first problem found at this level, or null if the shape is valid} */
    public String problem(Shape shape) {
        return this == NONE ? null : Validator.problem(shape, this == STRICT);
    }
}
