package io.extsock.core.fuzz;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Structure-aware mutation of valid encodings (made by our own encoders): flips bits, sets
 * octets and the fields it is told about (length fields, opcodes, flags) to values at their
 * boundaries, truncates, extends, splices in a donor, duplicates and deletes ranges. One to
 * four mutations per input; now and then none, so the valid input itself is also fed.
 */
public final class Mutator {

    /** A field of the encoding: its offset and width in octets (1, 2 or 4), big-endian. */
    public record Field(int offset, int width) {
    }

    private static final int[] INTERESTING_8 = {0x00, 0x01, 0x02, 0x03, 0x07, 0x0F, 0x10, 0x3F, 0x40, 0x7F, 0x80,
            0xC0, 0xFE, 0xFF};
    private static final int[] INTERESTING_16 = {0, 1, 2, 3, 4, 5, 7, 8, 13, 14, 15, 17, 18, 19, 28, 32, 45, 46, 47,
            70, 127, 128, 129, 255, 256, 508, 511, 512, 513, 1024, 1448, 4096, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF};
    private static final int[] INTERESTING_32 = {0, 1, 2, 3, 4, 0x7F, 0xFF, 0xFFFF, 0x10000, 0x7FFF_FFFF,
            0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF};

    private Mutator() {
    }

    /**
     * A mutant of {@code valid}.
     *
     * @param fields fields worth setting to boundary values (offsets into {@code valid})
     * @param donor another valid encoding to splice from, or null
     */
    public static byte[] mutate(SplittableRandom random, byte[] valid, Field[] fields, byte[] donor) {
        byte[] data = valid.clone();
        if (random.nextInt(16) == 0) {
            return data;
        }
        int mutations = 1 + random.nextInt(4);
        for (int i = 0; i < mutations; i++) {
            data = mutateOnce(random, data, fields, donor);
        }
        return data;
    }

    private static byte[] mutateOnce(SplittableRandom random, byte[] data, Field[] fields, byte[] donor) {
        switch (random.nextInt(10)) {
            case 0: // flip one bit
                if (data.length > 0) {
                    int at = random.nextInt(data.length);
                    data[at] ^= (byte) (1 << random.nextInt(8));
                }
                return data;
            case 1: // an octet to a boundary value or a random one
                if (data.length > 0) {
                    int at = random.nextInt(data.length);
                    data[at] = (byte) (random.nextBoolean() ? pick(random, INTERESTING_8) : random.nextInt(256));
                }
                return data;
            case 2:
            case 3: // a known field (length, opcode, flags, counts) to a boundary value
                if (fields.length > 0) {
                    Field field = fields[random.nextInt(fields.length)];
                    setField(random, data, field);
                }
                return data;
            case 4: // truncate
                return data.length == 0 ? data : Arrays.copyOf(data, random.nextInt(data.length));
            case 5: { // extend with random octets
                int extra = random.nextInt(1, random.nextBoolean() ? 8 : 600);
                byte[] longer = Arrays.copyOf(data, data.length + extra);
                for (int i = data.length; i < longer.length; i++) {
                    longer[i] = (byte) random.nextInt(256);
                }
                return longer;
            }
            case 6: { // splice: a prefix of this, a suffix of the donor (or of itself)
                byte[] other = donor != null && random.nextBoolean() ? donor : data;
                int cut = data.length == 0 ? 0 : random.nextInt(data.length + 1);
                int from = other.length == 0 ? 0 : random.nextInt(other.length + 1);
                byte[] spliced = Arrays.copyOf(data, cut + other.length - from);
                System.arraycopy(other, from, spliced, cut, other.length - from);
                return spliced;
            }
            case 7: { // duplicate a range
                if (data.length == 0) {
                    return data;
                }
                int from = random.nextInt(data.length);
                int length = random.nextInt(1, Math.min(64, data.length - from) + 1);
                byte[] longer = new byte[data.length + length];
                System.arraycopy(data, 0, longer, 0, from + length);
                System.arraycopy(data, from, longer, from + length, data.length - from);
                return longer;
            }
            case 8: { // delete a range
                if (data.length == 0) {
                    return data;
                }
                int from = random.nextInt(data.length);
                int length = random.nextInt(1, Math.min(64, data.length - from) + 1);
                byte[] shorter = new byte[data.length - length];
                System.arraycopy(data, 0, shorter, 0, from);
                System.arraycopy(data, from + length, shorter, from, data.length - from - length);
                return shorter;
            }
            default: // a run of random octets somewhere
                if (data.length > 0) {
                    int from = random.nextInt(data.length);
                    int length = random.nextInt(1, Math.min(8, data.length - from) + 1);
                    for (int i = from; i < from + length; i++) {
                        data[i] = (byte) random.nextInt(256);
                    }
                }
                return data;
        }
    }

    /** Sets a field to a boundary value, a neighbour of its value, or random bits. */
    public static void setField(SplittableRandom random, byte[] data, Field field) {
        if (field.offset() + field.width() > data.length) {
            return;
        }
        long current = 0;
        for (int i = 0; i < field.width(); i++) {
            current = current << 8 | data[field.offset() + i] & 0xFF;
        }
        long value;
        switch (random.nextInt(4)) {
            case 0:
                value = current + (random.nextBoolean() ? 1 : -1) * random.nextInt(1, 5);
                break;
            case 1:
                value = random.nextLong();
                break;
            default:
                value = field.width() == 1 ? pick(random, INTERESTING_8)
                        : field.width() == 2 ? pick(random, INTERESTING_16) : pick(random, INTERESTING_32);
        }
        for (int i = field.width() - 1; i >= 0; i--) {
            data[field.offset() + i] = (byte) value;
            value >>>= 8;
        }
    }

    private static int pick(SplittableRandom random, int[] values) {
        return values[random.nextInt(values.length)];
    }
}
