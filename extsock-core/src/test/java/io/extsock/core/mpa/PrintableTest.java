package io.extsock.core.mpa;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PrintableTest {

    @Test
    void textIsQuotedWithEscapesAndFollowedByItsHex() {
        byte[] octets = "GET /\r\n\"\\".getBytes(StandardCharsets.US_ASCII);
        assertEquals("\"GET /\\r\\n\\\"\\\\\" (47 45 54 20 2f 0d 0a 22 5c)", Printable.describe(octets));
        assertEquals("\"\\x00\\xff\" (00 ff)", Printable.describe(new byte[] {0, (byte) 0xFF}));
    }

    @Test
    void aLongInputShowsItsFirstOctetsAndHowManyThereWere() {
        byte[] octets = new byte[900];
        Arrays.fill(octets, (byte) 'a');
        String shown = Printable.describe(octets);
        assertEquals("\"" + "a".repeat(Printable.SHOWN) + "...\" (" + "61 ".repeat(Printable.SHOWN - 1) + "61 ...;"
                + " 900 octets)", shown);
    }

    @Test
    void aRangeShowsOnlyItsOctets() {
        byte[] octets = "xxMPAyy".getBytes(StandardCharsets.US_ASCII);
        assertEquals("\"MPA\" (4d 50 41)", Printable.describe(octets, 2, 5));
        assertEquals("\"\" ()", Printable.describe(octets, 3, 3));
    }
}
