package io.extsock.internal;

import java.net.InetSocketAddress;

/** Socket addresses in words, as extsock's messages and logs show them. */
public final class SocketAddresses {

    private SocketAddresses() {
    }

    /**
     * @param address a resolved address
     * @return {@code 127.0.0.1:40000}, or {@code [::1]:40000} for IPv6
     */
    public static String hostAndPort(InetSocketAddress address) {
        String host = address.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort();
    }
}
