package io.extsock.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * A benchmark's numbers on its command line, in order, beside its {@code --} flags (which
 * {@link RunLength#of} reads): {@code [--quick] [connections [round-trips]]}, say.
 */
final class PositionalNumbers {

    private final List<Integer> numbers = new ArrayList<>();

    PositionalNumbers(String[] args) {
        for (String arg : args) {
            if (!arg.startsWith("--")) {
                numbers.add(Integer.parseInt(arg));
            }
        }
    }

    /** The {@code index}th number given (from 0), or {@code otherwise} if there are fewer. */
    int get(int index, int otherwise) {
        return index < numbers.size() ? numbers.get(index) : otherwise;
    }
}
