package io.extsock.testkit.wire;

import java.util.ArrayList;
import java.util.List;

/**
 * One protocol layer of a packet in tshark's PDML (a top-level {@code <proto>}) with all its
 * fields, nested ones included, in document order.
 */
final class PdmlLayer {

    final String name;
    final int size;
    final List<PdmlField> fields = new ArrayList<>();

    PdmlLayer(String name, int size) {
        this.name = name;
        this.size = size;
    }

    boolean has(String field) {
        return first(field) != null;
    }

    PdmlField first(String field) {
        for (PdmlField f : fields) {
            if (f.name().equals(field)) {
                return f;
            }
        }
        return null;
    }

    List<PdmlField> all(String field) {
        return fields.stream().filter(f -> f.name().equals(field)).toList();
    }

    long number(String field, long otherwise) {
        PdmlField f = first(field);
        if (f == null) {
            return otherwise;
        }
        try {
            return f.number();
        } catch (NumberFormatException notANumber) {
            return otherwise;
        }
    }

    String show(String field) {
        PdmlField f = first(field);
        return f == null ? null : f.show();
    }
}
