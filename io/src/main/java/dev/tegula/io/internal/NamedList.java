package dev.tegula.io.internal;

import java.util.AbstractList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.function.Function;

/**
 * An unmodifiable list of a header's entries that also finds an entry by its name in constant
 * expected time (a name given twice finds the first entry of that name). It keeps the list's order
 * and holds no null; it equals any list of the same entries in the same order. Thread-safe.
 *
 * @param <E> the entry type
 */
public final class NamedList<E> extends AbstractList<E> implements RandomAccess {
    private final Object[] items;
    private final Map<String, E> byName;

    private NamedList(Object[] items, Map<String, E> byName) {
        this.items = items;
        this.byName = byName;
    }

    /**
     * {@return {@code entries} in this order, indexed by {@code name}} A {@code NamedList} is
     * returned as it is.
     *
     * @throws NullPointerException if an entry or its name is null
     */
    @SuppressWarnings("unchecked")
    public static <E> NamedList<E> of(List<? extends E> entries, Function<? super E, String> name) {
        if (entries instanceof NamedList<?> l) {
            return (NamedList<E>) l;
        }
        Object[] items = entries.toArray();
        Map<String, E> byName = HashMap.newHashMap(items.length);
        for (Object o : items) {
            E e = (E) Objects.requireNonNull(o, "entry");
            byName.putIfAbsent(Objects.requireNonNull(name.apply(e), "name"), e);
        }
        return new NamedList<>(items, byName);
    }

    /** {@return the first entry called {@code name}, or null} */
    public E named(String name) {
        return byName.get(name);
    }

    @Override
    @SuppressWarnings("unchecked")
    public E get(int index) {
        return (E) items[Objects.checkIndex(index, items.length)];
    }

    @Override
    public int size() {
        return items.length;
    }
}
