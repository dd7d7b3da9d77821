package io.extsock.agent;

import io.extsock.IwarpOptions;
import io.extsock.internal.IwarpOptionValues;
import java.net.SocketOption;
import java.util.LinkedHashMap;
import java.util.Map;

/** The iWARP options that a converted socket under an {@code iwarp} rule gets: the one place they are made. */
final class ConvertedSocketOptions {

    private ConvertedSocketOptions() {
    }

    /**
     * IWARP_MODE, and what becomes of a connection whose peer is not an iWARP peer: with
     * fallback=on it goes on as plain TCP ({@code FALLBACK}, a silent peer taken for a plain one
     * after {@code FALLBACK_WAIT}); with fallback=off it fails, and a silent peer fails after the
     * same wait ({@code MPA_TIMEOUT}), not after the MPA timeout's default of 10 s: an iWARP peer
     * sends its MPA key at once, so a longer wait only keeps the program waiting for a failure.
     *
     * @param arguments the agent's arguments
     * @return the options for a connection an {@code iwarp} rule matched
     */
    static Map<SocketOption<?>, Object> forIwarpRule(AgentArguments arguments) {
        Map<SocketOption<?>, Object> options = new LinkedHashMap<>();
        options.put(IwarpOptions.IWARP_MODE, Boolean.TRUE);
        options.put(IwarpOptions.FALLBACK, arguments.fallback());
        int wait = arguments.fallbackWaitMillis();
        if (arguments.fallback()) {
            options.put(IwarpOptions.FALLBACK_WAIT, wait);
            // The MPA timeout bounds the whole negotiation, the wait included: a longer wait raises it.
            int mpaTimeout = IwarpOptionValues.defaultValue(IwarpOptions.MPA_TIMEOUT);
            options.put(IwarpOptions.MPA_TIMEOUT, Math.max(wait, mpaTimeout));
        } else {
            options.put(IwarpOptions.MPA_TIMEOUT, wait);
        }
        return Map.copyOf(options);
    }
}
