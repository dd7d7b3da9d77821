package io.extsock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cold-start harness end to end: a fresh JVM switches to IWARP_MODE, echoes, and reports its
 * figures, its CPU time (this runs on Linux) and JFR's negotiation durations among them. Not a performance test: no figure is compared
 * with a limit.
 */
@Timeout(120)
class FirstSwitchColdStartSmokeTest {

    @Test
    void aFreshJvmSwitchesEchoesAndReportsBothNegotiations() throws Exception {
        FirstSwitchColdStart.Plan plan = FirstSwitchColdStart.Plan.of(new String[] {"--samples", "1", "--jfr"});

        Map<String, Double> figures = FirstSwitchColdStart.sample(plan, "iwarp");

        for (String name : List.of(FirstSwitchSample.OPEN, FirstSwitchSample.FIRST_ECHO,
                FirstSwitchSample.FIRST_ECHO_CPU, FirstSwitchSample.NEGOTIATION_INITIATOR, FirstSwitchSample.NEGOTIATION_RESPONDER)) {
            assertTrue(figures.containsKey(name) && figures.get(name) > 0, name + " in " + figures);
        }
        assertEquals(figures.get(FirstSwitchSample.OPEN) + figures.get(FirstSwitchSample.FIRST_ECHO),
                figures.get(FirstSwitchColdStart.TOTAL), 1e-9);
    }

    @Test
    void aPlainSampleHasNoNegotiation() throws Exception {
        FirstSwitchColdStart.Plan plan = FirstSwitchColdStart.Plan.of(new String[] {"--jfr"});

        Map<String, Double> figures = FirstSwitchColdStart.sample(plan, "plain");

        assertTrue(figures.get(FirstSwitchSample.FIRST_ECHO) > 0, figures.toString());
        assertTrue(!figures.containsKey(FirstSwitchSample.NEGOTIATION_INITIATOR), figures.toString());
    }

    @Test
    void theIntervalOfTheMedianHoldsTheMedian() {
        double[] samples = {5, 1, 4, 2, 3, 9, 7};

        double[] interval = FirstSwitchColdStart.medianInterval(samples, 1);

        assertTrue(interval[0] <= Stats.median(samples) && Stats.median(samples) <= interval[1],
                interval[0] + " .. " + interval[1]);
        assertTrue(interval[0] >= 1 && interval[1] <= 9, interval[0] + " .. " + interval[1]);
    }

    @Test
    void anUnknownOptionIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FirstSwitchColdStart.Plan.of(new String[] {"--sample", "3"}));

        assertTrue(e.getMessage().contains("--sample"), e.getMessage());
    }
}
