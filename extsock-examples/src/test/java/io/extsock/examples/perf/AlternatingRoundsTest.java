package io.extsock.examples.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Alternating rounds (perf compare, the demo): warm-up rounds run every row and count for none; the counted rounds alternate. */
class AlternatingRoundsTest {

    @Test
    void warmUpRoundsRunButAreNotCounted() throws Exception {
        List<String> calls = new ArrayList<>();
        AlternatingRounds.Row<Integer> a = row("a", calls);
        AlternatingRounds.Row<Integer> b = row("b", calls);
        List<AlternatingRounds.Row<Integer>> rows = List.of(a, b);

        AlternatingRounds.warmUp(rows, 2);
        AlternatingRounds.run(rows, 3);

        assertEquals(List.of("a1", "b1", "b2", "a2", "a3", "b3", "b4", "a4", "a5", "b5"), calls,
                "two warm-up rounds, then three counted, each in alternating order");
        assertEquals(List.of(3, 4, 5), a.results, "only the counted rounds' results are kept");
        assertEquals(List.of(3, 4, 5), b.results);
    }

    /** A row whose every run returns how many times it ran, and logs it. */
    private static AlternatingRounds.Row<Integer> row(String name, List<String> calls) {
        int[] runs = {0};
        return new AlternatingRounds.Row<>(() -> {
            runs[0]++;
            calls.add(name + runs[0]);
            return runs[0];
        }, Integer::doubleValue, null, "itself");
    }
}
