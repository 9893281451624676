package dev.lanehost.lanes.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Access} names the API classes it initializes, rather than importing them: each name must stay right. */
class AccessTest {

    @Test
    void eachClassNameNamesAnApiClass() throws ReflectiveOperationException {
        List<String> names = new ArrayList<>();
        for (Field field : Access.class.getDeclaredFields()) {
            if (field.getType() == String.class && Modifier.isStatic(field.getModifiers())) {
                field.setAccessible(true);
                names.add((String) field.get(null));
            }
        }
        assertEquals(9, names.size(), "one name for each access: " + names);
        for (String name : names) {
            Class<?> api = Class.forName(name, false, Access.class.getClassLoader());
            assertEquals("dev.lanehost.lanes", api.getPackageName(), name);
        }
    }

    @Test
    void eachGetterFindsItsAccess() {
        assertNotNull(Access.refs());
        assertNotNull(Access.timers());
        assertNotNull(Access.signals());
        assertNotNull(Access.parks());
        assertNotNull(Access.tasks());
        assertNotNull(Access.options());
        assertNotNull(Access.idle());
        assertNotNull(Access.teardowns());
        assertNotNull(Access.disruptions());
    }
}
