package io.extsock.internal;

import java.net.SocketOption;

/** A socket option that only extsock understands; compared by identity like the JDK's own. */
public final class IwarpSocketOption<T> implements SocketOption<T> {

    private final String name;
    private final Class<T> type;

    public IwarpSocketOption(String name, Class<T> type) {
        this.name = name;
        this.type = type;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Class<T> type() {
        return type;
    }

    @Override
    public String toString() {
        return name;
    }
}
