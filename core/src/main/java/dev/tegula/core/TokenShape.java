package dev.tegula.core;

/** The token shape, written {@code token[]}. It has no dimensions and no layout. A singleton. */
public final class TokenShape implements Shape {
    /** The one token shape. */
    public static final TokenShape INSTANCE = new TokenShape();

    private TokenShape() {
    }

    /** {@return {@code token[]}} */
    @Override
    public String toString() {
        return "token[]";
    }

    @Override
    public String toStringWithoutLayout() {
        return "token[]";
    }

    /** {@return 0} */
    @Override
    public long byteSize() {
        return 0;
    }
}
