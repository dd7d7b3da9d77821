package io.extsock.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every text of every command's {@code --help} is a valid format string. Picocli renders them
 * with String.format, so a bare percent sign ("95% interval") makes it warn on standard error
 * and print the raw text, "%n" and all.
 */
class UsageHelpTest {

    @Test
    void everyHelpTextIsAValidFormatString() {
        List<String> failures = new ArrayList<>();
        check(new CommandLine(new ExtsockCommand()), failures);
        assertEquals(List.of(), failures);
    }

    @Test
    void aBarePercentSignIsCaught() {
        List<String> failures = new ArrayList<>();
        checkText("test", new String[] {"a 95% interval"}, failures);
        assertEquals(1, failures.size(), failures.toString());
    }

    /**
     * The texts as written in the annotations, before picocli interpolates them: what its help
     * renderer hands to String.format.
     */
    private static void check(CommandLine commandLine, List<String> failures) {
        String name = commandLine.getCommandSpec().qualifiedName(" ");
        checkClass(commandLine.getCommandSpec().userObject().getClass(), name, failures);
        for (CommandLine sub : commandLine.getSubcommands().values()) {
            check(sub, failures);
        }
    }

    /** A command's class, its superclasses and the mixins and argument groups its fields hold. */
    private static void checkClass(Class<?> type, String name, List<String> failures) {
        for (; type != null && type != Object.class; type = type.getSuperclass()) {
            CommandLine.Command command = type.getAnnotation(CommandLine.Command.class);
            if (command != null) {
                checkText(name + " description", command.description(), failures);
                checkText(name + " header", command.header(), failures);
                checkText(name + " footer", command.footer(), failures);
            }
            for (Field field : type.getDeclaredFields()) {
                check(field, name, failures);
                if (field.isAnnotationPresent(CommandLine.Mixin.class)
                        || field.isAnnotationPresent(CommandLine.ArgGroup.class)) {
                    checkClass(field.getType(), name, failures);
                }
            }
            for (Method method : type.getDeclaredMethods()) {
                check(method, name, failures);
            }
        }
    }

    private static void check(AnnotatedElement element, String name, List<String> failures) {
        CommandLine.Option option = element.getAnnotation(CommandLine.Option.class);
        if (option != null) {
            checkText(name + " " + String.join("/", option.names()), option.description(), failures);
        }
        CommandLine.Parameters parameters = element.getAnnotation(CommandLine.Parameters.class);
        if (parameters != null) {
            checkText(name + " " + element, parameters.description(), failures);
        }
    }

    private static void checkText(String where, String[] lines, List<String> failures) {
        for (String line : lines) {
            try {
                String.format(line);
            } catch (IllegalFormatException e) {
                failures.add(where + ": " + e + " in \"" + line + "\"");
            }
        }
    }
}
