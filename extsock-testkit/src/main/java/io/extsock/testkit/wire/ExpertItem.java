package io.extsock.testkit.wire;

/**
 * One expert-info item: from the packet tree (frame known) or from tshark's expert summary
 * ({@code -z expert}: frame 0, with a count). Severity: error, warning, note, chat, comment.
 */
record ExpertItem(String severity, String protocol, String message, int frame, int count) {

    boolean isError() {
        return severity.equals("error");
    }

    boolean isWarning() {
        return severity.equals("warning");
    }

    /** PDML gives severities as Wireshark's PI_* numbers. */
    static String severityOf(String number) {
        return switch (number) {
            case "8388608" -> "error";
            case "6291456" -> "warning";
            case "4194304" -> "note";
            case "2097152" -> "chat";
            case "1048576" -> "comment";
            default -> "severity " + number;
        };
    }
}
