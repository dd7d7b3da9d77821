package io.extsock.agent;

import java.net.InetAddress;
import java.util.List;

/**
 * The HOST field of a rule: any address ({@code *}), or a list of networks (an IP literal with an
 * optional prefix length, or every address a host name resolved to when the agent started).
 * An IPv4 network never matches an IPv6 address and the other way round; the JDK already gives
 * IPv4-mapped IPv6 addresses ({@code ::ffff:a.b.c.d}) as IPv4 ones.
 */
final class AddressPattern {

    static final AddressPattern ANY = new AddressPattern(List.of());

    private final List<Network> networks;

    private AddressPattern(List<Network> networks) {
        this.networks = networks;
    }

    /** @return a pattern for these networks; none would be {@link #ANY}, so at least one */
    static AddressPattern of(List<Network> networks) {
        if (networks.isEmpty()) {
            throw new IllegalArgumentException("a host pattern needs at least one network");
        }
        return new AddressPattern(List.copyOf(networks));
    }

    boolean matches(InetAddress address) {
        if (networks.isEmpty()) {
            return true;
        }
        for (Network network : networks) {
            if (network.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** An address and how many of its leading bits a matching address shares with it. */
    static final class Network {
        private final byte[] base;
        private final int prefixLength;

        Network(InetAddress base, int prefixLength) {
            this.base = base.getAddress();
            if (prefixLength < 0 || prefixLength > this.base.length * 8) {
                throw new IllegalArgumentException("prefix length " + prefixLength + " out of range");
            }
            this.prefixLength = prefixLength;
        }

        boolean contains(InetAddress address) {
            byte[] candidate = address.getAddress();
            if (candidate.length != base.length) {
                return false;
            }
            int wholeBytes = prefixLength / 8;
            for (int i = 0; i < wholeBytes; i++) {
                if (candidate[i] != base[i]) {
                    return false;
                }
            }
            int restBits = prefixLength % 8;
            if (restBits == 0) {
                return true;
            }
            int mask = (0xFF << (8 - restBits)) & 0xFF;
            return (candidate[wholeBytes] & mask) == (base[wholeBytes] & mask);
        }
    }
}
