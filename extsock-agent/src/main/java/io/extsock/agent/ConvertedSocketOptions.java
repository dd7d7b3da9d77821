package io.extsock.agent;

import io.extsock.IwarpOptions;
import java.net.SocketOption;
import java.util.LinkedHashMap;
import java.util.Map;

/** The iWARP options that a converted socket under an {@code iwarp} rule gets: the one place they are made. */
final class ConvertedSocketOptions {

    private ConvertedSocketOptions() {
    }

    /**
     * @param arguments the agent's arguments
     * @return the options for a connection an {@code iwarp} rule matched
     */
    static Map<SocketOption<?>, Object> forIwarpRule(AgentArguments arguments) {
        Map<SocketOption<?>, Object> options = new LinkedHashMap<>();
        options.put(IwarpOptions.IWARP_MODE, Boolean.TRUE);
        // Where arguments.fallback() goes once IwarpOptions.FALLBACK exists:
        //     options.put(IwarpOptions.FALLBACK, arguments.fallback());
        // Until then a connection whose peer is no iWARP peer fails its switch and is closed.
        return Map.copyOf(options);
    }
}
