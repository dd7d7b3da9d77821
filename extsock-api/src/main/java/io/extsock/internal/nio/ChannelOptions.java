package io.extsock.internal.nio;

import io.extsock.IwarpOptions;
import java.net.SocketOption;
import java.util.HashSet;
import java.util.Set;

/** The options of extsock's channels: those of the JDK's channel underneath, and the iWARP ones. */
final class ChannelOptions {

    private ChannelOptions() {
    }

    static Set<SocketOption<?>> withIwarp(Set<SocketOption<?>> platformOptions) {
        Set<SocketOption<?>> options = new HashSet<>(platformOptions);
        options.addAll(IwarpOptions.ALL);
        return Set.copyOf(options);
    }
}
