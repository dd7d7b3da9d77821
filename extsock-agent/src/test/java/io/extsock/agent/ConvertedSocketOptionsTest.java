package io.extsock.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.extsock.IwarpOptions;
import java.net.SocketOption;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConvertedSocketOptionsTest {

    private static Map<SocketOption<?>, Object> optionsFor(String arguments) throws AgentConfigurationException {
        return ConvertedSocketOptions.forIwarpRule(AgentArguments.parse("rules=r" + arguments));
    }

    @Test
    void fallbackIsOnByDefaultWithTheOptionsDefaultWait() throws AgentConfigurationException {
        assertEquals(Map.of(IwarpOptions.IWARP_MODE, true, IwarpOptions.FALLBACK, true, IwarpOptions.FALLBACK_WAIT, 1000,
                IwarpOptions.MPA_TIMEOUT, 10_000), optionsFor(""));
    }

    @Test
    void fallbackWaitSetsTheWait() throws AgentConfigurationException {
        assertEquals(Map.of(IwarpOptions.IWARP_MODE, true, IwarpOptions.FALLBACK, true, IwarpOptions.FALLBACK_WAIT, 250,
                IwarpOptions.MPA_TIMEOUT, 10_000), optionsFor(",fallback-wait=250"));
    }

    @Test
    void aWaitLongerThanTheMpaTimeoutRaisesIt() throws AgentConfigurationException {
        // Else the MPA timeout would end the wait early.
        assertEquals(Map.of(IwarpOptions.IWARP_MODE, true, IwarpOptions.FALLBACK, true, IwarpOptions.FALLBACK_WAIT, 30_000,
                IwarpOptions.MPA_TIMEOUT, 30_000), optionsFor(",fallback-wait=30000"));
    }

    @Test
    void withoutFallbackASilentPeerFailsAfterTheWaitNotTheMpaTimeout() throws AgentConfigurationException {
        assertEquals(Map.of(IwarpOptions.IWARP_MODE, true, IwarpOptions.FALLBACK, false, IwarpOptions.MPA_TIMEOUT, 1000),
                optionsFor(",fallback=off"));
        assertEquals(Map.of(IwarpOptions.IWARP_MODE, true, IwarpOptions.FALLBACK, false, IwarpOptions.MPA_TIMEOUT, 400),
                optionsFor(",fallback=off,fallback-wait=400"));
    }
}
