package io.extsock.verbs;

import java.util.Arrays;
import java.util.Objects;

/**
 * A request to post on a connection. Request objects are mutable and reusable: posting copies
 * what the engine needs, so one object can be filled in and posted again and again without
 * allocating (as with the verbs' work-request structs).
 */
public abstract sealed class WorkRequest permits SendRequest, ReceiveRequest, WriteRequest, ReadRequest {

    /** The most slices one scatter or gather list may hold. */
    public static final int MAX_SLICES = 16;

    private long tag;

    /** Creates a request; the permitted subclasses are the only ones. */
    public WorkRequest() {
        // as the default constructor; declared for its javadoc
    }

    /**
     * The application's tag, returned in the request's completion.
     *
     * @return the tag; 0 unless set
     */
    public long tag() {
        return tag;
    }

    void setTag(long tag) {
        this.tag = tag;
    }

    /**
     * The operation the completion will report.
     *
     * @return this request's operation
     */
    public abstract WorkOpcode opcode();

    /** A scatter or gather list: up to {@link #MAX_SLICES} region slices. */
    static final class Slices {
        private final RegionSlice[] slices = new RegionSlice[MAX_SLICES];
        private int count;

        void set(RegionSlice... list) {
            Objects.requireNonNull(list, "slices");
            if (list.length > MAX_SLICES) {
                throw new IllegalArgumentException(list.length + " slices, at most " + MAX_SLICES);
            }
            for (RegionSlice slice : list) {
                Objects.requireNonNull(slice, "slice");
            }
            Arrays.fill(slices, null);
            System.arraycopy(list, 0, slices, 0, list.length);
            count = list.length;
        }

        int count() {
            return count;
        }

        RegionSlice get(int index) {
            Objects.checkIndex(index, count);
            return slices[index];
        }

        long totalLength() {
            long total = 0;
            for (int i = 0; i < count; i++) {
                total += slices[i].length();
            }
            return total;
        }
    }
}
