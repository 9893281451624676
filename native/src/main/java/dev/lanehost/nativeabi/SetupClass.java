package dev.lanehost.nativeabi;

import dev.lanehost.callgate.CallStatus;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;

/**
 * The user's {@link HostSetup} or {@link GuestSetup}, found by name on the JVM's class path and created. A name that does not lead
 * to a usable class is the host's mistake ({@code INVALID_ARGUMENT}); a constructor or static initializer
 * that throws is the setup's own failure ({@code CALLBACK_FAILED}).
 */
final class SetupClass {
    private SetupClass() {
    }

    static HostSetup instantiate(String name) throws EmbedFailure {
        return instantiate(name, HostSetup.class);
    }

    static <T> T instantiate(String name, Class<T> kind) throws EmbedFailure {
        if (name == null || name.isBlank()) {
            throw invalid("the setup class name is empty");
        }
        if (name.indexOf('/') >= 0 || name.endsWith(".class")) {
            throw invalid("the setup class name " + name + " is a path; give the class's binary name, with dots"
                    + " (com.example.MySetup, and Outer$Inner for a nested class)");
        }
        Class<?> type;
        try {
            // The application class loader: the class path lanehost_embed_options.class_path gave the JVM.
            type = Class.forName(name, false, ClassLoader.getSystemClassLoader());
        } catch (ClassNotFoundException e) {
            throw invalid("the setup class " + name + " is not on the class path (" + System.getProperty("java.class.path")
                    + "); a nested class is named Outer$Inner");
        } catch (LinkageError e) {
            throw invalid("the setup class " + name + " cannot be loaded: " + ThrowableSummary.of(e));
        }
        if (!kind.isAssignableFrom(type)) {
            throw invalid("the setup class " + name + " does not implement " + kind.getName());
        }
        int modifiers = type.getModifiers();
        if (!Modifier.isPublic(modifiers) || Modifier.isAbstract(modifiers)) {
            throw invalid("the setup class " + name + " must be public and not abstract");
        }
        Constructor<? extends T> constructor;
        try {
            constructor = type.asSubclass(kind).getConstructor();
        } catch (NoSuchMethodException e) {
            throw invalid("the setup class " + name + " has no public no-argument constructor");
        }
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw EmbedFailure.setupThrew("the constructor of the setup class " + name, e.getCause());
        } catch (ExceptionInInitializerError e) {
            throw EmbedFailure.setupThrew("the static initializer of the setup class " + name, e.getCause());
        } catch (ReflectiveOperationException | LinkageError e) {
            throw invalid("the setup class " + name + " cannot be created: " + ThrowableSummary.of(e));
        }
    }

    private static EmbedFailure invalid(String sentence) {
        return new EmbedFailure(CallStatus.INVALID_ARGUMENT, sentence);
    }
}
