package io.extsock.examples.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses byte sizes: 4096, 64K, 64KiB, 8M, 1G (binary multiples). */
public final class SizeConverter implements ITypeConverter<Long> {

    @Override
    public Long convert(String value) {
        String text = value.trim().toUpperCase(Locale.ROOT);
        if (text.endsWith("IB")) {
            text = text.substring(0, text.length() - 2);
        } else if (text.endsWith("B")) {
            text = text.substring(0, text.length() - 1);
        }
        int shift = 0;
        if (!text.isEmpty()) {
            switch (text.charAt(text.length() - 1)) {
                case 'K': shift = 10; break;
                case 'M': shift = 20; break;
                case 'G': shift = 30; break;
                case 'T': shift = 40; break;
                default: break;
            }
        }
        if (shift > 0) {
            text = text.substring(0, text.length() - 1);
        }
        try {
            long number = Long.parseLong(text.trim());
            if (number < 0 || number > (Long.MAX_VALUE >> shift)) {
                throw new TypeConversionException("'" + value + "' is not a size in bytes (for example 4096, 64K, 8M, 1G)");
            }
            return number << shift;
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is not a size in bytes (for example 4096, 64K, 8M, 1G)");
        }
    }
}
