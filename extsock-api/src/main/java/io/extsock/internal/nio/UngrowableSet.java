package io.extsock.internal.nio;

import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Set;

/**
 * A selector's selected-key set as the application sees it: keys may be removed, never added
 * ({@link java.nio.channels.Selector#selectedKeys}).
 */
final class UngrowableSet<E> extends AbstractSet<E> {

    private final Set<E> set;

    UngrowableSet(Set<E> set) {
        this.set = set;
    }

    @Override
    public int size() {
        return set.size();
    }

    @Override
    public boolean isEmpty() {
        return set.isEmpty();
    }

    @Override
    public boolean contains(Object o) {
        return set.contains(o);
    }

    @Override
    public boolean remove(Object o) {
        return set.remove(o);
    }

    @Override
    public void clear() {
        set.clear();
    }

    @Override
    public Iterator<E> iterator() {
        return set.iterator();
    }

    @Override
    public boolean add(E e) {
        throw new UnsupportedOperationException();
    }
}
