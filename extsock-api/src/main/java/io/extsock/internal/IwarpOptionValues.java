package io.extsock.internal;

import io.extsock.IwarpOptions;
import io.extsock.IwarpUnavailableException;
import io.extsock.verbs.IwarpSetup;
import java.net.SocketOption;
import java.util.Map;

/** The defaults of the iWARP options and the values each accepts. */
public final class IwarpOptionValues {

    /** RFC 6581 section 7.1: IRD and ORD are 14-bit counts. */
    public static final int MAX_READ_DEPTH = 0x3FFF;
    /** The smallest FPDU that still carries a tagged header and some payload. */
    public static final int MIN_FPDU_SIZE = 64;
    /** An FPDU: 2 + 65535 + pad + 4 octets, markers aside. */
    public static final int MAX_FPDU_SIZE = 65_544;
    /** MAX_FPDU_SIZE's default: one TCP segment of the path, worked out at the switch. */
    public static final int PATH_FPDU_SIZE = 0;
    /** Private data the application may add: 512 (RFC 5044) less the IRD/ORD words and room for extsock. */
    public static final int MAX_PRIVATE_DATA = 256;

    /**
     * Not an option applications set: the socket tells the provider with it that the connection
     * carried no plain stream before the switch (IWARP_MODE was set before connect, or on the
     * server socket that accepted it). The peer's first octet must then start its MPA frame
     * (RFC 5044 section 7.1.1); without it, stream bytes the peer wrote before its switch may
     * come first.
     */
    public static final SocketOption<Boolean> NO_EARLIER_STREAM =
            new IwarpSocketOption<>("extsock.noEarlierStream", Boolean.class);

    private static final Map<SocketOption<?>, Object> DEFAULTS = Map.ofEntries(
            Map.entry(IwarpOptions.IWARP_MODE, false),
            Map.entry(IwarpOptions.CRC, true),
            Map.entry(IwarpOptions.MARKERS, false),
            Map.entry(IwarpOptions.IRD, 16),
            Map.entry(IwarpOptions.ORD, 16),
            Map.entry(IwarpOptions.MAX_FPDU_SIZE, PATH_FPDU_SIZE),
            Map.entry(IwarpOptions.MPA_REVISION, 2),
            Map.entry(IwarpOptions.READY_TO_RECEIVE, IwarpOptions.ReadyToReceive.ZERO_LENGTH_WRITE),
            Map.entry(IwarpOptions.MPA_TIMEOUT, 10_000),
            Map.entry(IwarpOptions.PRIVATE_DATA, new byte[0]),
            Map.entry(IwarpOptions.STREAMS, true),
            Map.entry(IwarpOptions.SETUP, (IwarpSetup) connection -> { }),
            Map.entry(IwarpOptions.FALLBACK, false),
            Map.entry(IwarpOptions.FALLBACK_WAIT, 1_000),
            Map.entry(IwarpOptions.SPIN_MICROS, spinMicrosProperty()),
            Map.entry(IwarpOptions.PROVIDER, IwarpOptions.Provider.AUTO));

    private IwarpOptionValues() {
    }

    /** SPIN_MICROS's default: the JVM-wide property, kept within the option's range. */
    private static int spinMicrosProperty() {
        long micros = Long.getLong("extsock.spin.micros", 50);
        return (int) Math.max(0, Math.min(micros, IwarpOptions.MAX_SPIN_MICROS));
    }

    /** The option's value when nobody set it. */
    @SuppressWarnings("unchecked")
    public static <T> T defaultValue(SocketOption<T> option) {
        Object value = DEFAULTS.get(option);
        if (value == null) {
            throw new IllegalArgumentException("not an iWARP option: " + option);
        }
        return (T) (value instanceof byte[] ? ((byte[]) value).clone() : value);
    }

    /** The option's value in the settings, or its default. */
    @SuppressWarnings("unchecked")
    public static <T> T valueIn(Map<SocketOption<?>, Object> settings, SocketOption<T> option) {
        Object value = settings.get(option);
        return value != null ? (T) value : defaultValue(option);
    }

    /**
     * Checks a value the application sets on a socket or server socket and keeps it in the
     * socket's {@code settings}: IWARP_MODE on needs the engine, off is kept as no setting, and an
     * array is kept as a copy that the caller can no longer change.
     *
     * @throws IwarpUnavailableException for IWARP_MODE on when there is no engine
     * @throws IllegalArgumentException naming the option and its allowed values
     */
    public static void store(Map<SocketOption<?>, Object> settings, SocketOption<?> option, Object value)
            throws IwarpUnavailableException {
        if (option == IwarpOptions.IWARP_MODE) {
            if ((Boolean) value) {
                IwarpProviders.require();
                settings.put(option, Boolean.TRUE);
            } else {
                settings.remove(option);
            }
            return;
        }
        validate(option, value);
        settings.put(option, value instanceof byte[] ? ((byte[]) value).clone() : value);
    }

    /** The option's value in the settings, or its default; an array as a copy the caller may change. */
    @SuppressWarnings("unchecked")
    public static <T> T copyOfValueIn(Map<SocketOption<?>, Object> settings, SocketOption<T> option) {
        T value = valueIn(settings, option);
        return value instanceof byte[] ? (T) ((byte[]) value).clone() : value;
    }

    /**
     * Checks a value before it is set.
     *
     * @throws IllegalArgumentException naming the option and its allowed values
     */
    public static void validate(SocketOption<?> option, Object value) {
        if (option == IwarpOptions.IRD || option == IwarpOptions.ORD) {
            requireRange(option, (Integer) value, 0, MAX_READ_DEPTH);
        } else if (option == IwarpOptions.MAX_FPDU_SIZE) {
            int size = (Integer) value;
            if (size != PATH_FPDU_SIZE && (size < MIN_FPDU_SIZE || size > MAX_FPDU_SIZE)) {
                throw new IllegalArgumentException(option + " must be 0 (one TCP segment of the path) or in ["
                        + MIN_FPDU_SIZE + ", " + MAX_FPDU_SIZE + "], not " + size);
            }
        } else if (option == IwarpOptions.MPA_REVISION) {
            int revision = (Integer) value;
            if (revision != 1 && revision != 2) {
                throw new IllegalArgumentException(option + " must be 1 or 2, not " + revision);
            }
        } else if (option == IwarpOptions.MPA_TIMEOUT || option == IwarpOptions.FALLBACK_WAIT) {
            requireRange(option, (Integer) value, 1, Integer.MAX_VALUE);
        } else if (option == IwarpOptions.SPIN_MICROS) {
            requireRange(option, (Integer) value, 0, IwarpOptions.MAX_SPIN_MICROS);
        } else if (option == IwarpOptions.PRIVATE_DATA) {
            int length = ((byte[]) value).length;
            if (length > MAX_PRIVATE_DATA) {
                throw new IllegalArgumentException(option + " holds at most " + MAX_PRIVATE_DATA
                        + " bytes, not " + length);
            }
        }
    }

    private static void requireRange(SocketOption<?> option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + " must be in [" + min + ", " + max + "], not " + value);
        }
    }
}
