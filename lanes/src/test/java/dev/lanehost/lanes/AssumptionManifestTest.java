package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.AssumptionManifest.Clause;
import dev.lanehost.lanes.AssumptionManifest.Discharge;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The published partition: what each profile discharges itself and what it assumes, printed on request. */
class AssumptionManifestTest {

    @Test
    void hostedAssumesFairnessOfTheOsSchedulerAndDischargesTheRest() {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED)) {
            AssumptionManifest manifest = runtime.assumptionManifest();
            assertEquals(Profile.HOSTED, manifest.profile());
            assertEquals(AssumptionManifest.Authority.SOVEREIGN, manifest.authority());
            assertInstanceOf(Discharge.Assumed.class, manifest.clauses().get(Clause.FAIRNESS));
            assertTrue(((Discharge.Assumed) manifest.clauses().get(Clause.FAIRNESS)).substrate().startsWith("the OS scheduler"));
            for (Clause clause : new Clause[] {Clause.TURN_DISCIPLINE, Clause.CONTROL_PLANE_IMMUNITY, Clause.ADMISSION}) {
                assertInstanceOf(Discharge.Discharged.class, manifest.clauses().get(clause), clause.toString());
            }
        }
    }

    @Test
    void singleThreadAssumesItsHostForFairnessAndTheControlPlane() {
        AssumptionManifest manifest = AssumptionManifest.of(Profile.SINGLE_THREAD);
        assertInstanceOf(Discharge.Assumed.class, manifest.clauses().get(Clause.FAIRNESS));
        assertInstanceOf(Discharge.Assumed.class, manifest.clauses().get(Clause.CONTROL_PLANE_IMMUNITY));
        assertInstanceOf(Discharge.Discharged.class, manifest.clauses().get(Clause.TURN_DISCIPLINE));
        assertInstanceOf(Discharge.Discharged.class, manifest.clauses().get(Clause.ADMISSION));
    }

    @Test
    void simulatedDischargesEveryClause() {
        AssumptionManifest manifest = AssumptionManifest.of(Profile.SIMULATED);
        manifest.clauses().forEach((clause, discharge) -> assertInstanceOf(Discharge.Discharged.class, discharge, clause.toString()));
    }

    @Test
    void theRenderedManifestHasOneLinePerClause() {
        String rendered = AssumptionManifest.of(Profile.HOSTED).render();
        assertTrue(rendered.startsWith("scheduler contract, profile HOSTED, authority SOVEREIGN\n"), rendered);
        for (Clause clause : Clause.values()) {
            assertEquals(1, rendered.lines().filter(line -> line.trim().startsWith(clause.name() + " ")).count(), rendered);
        }
        assertTrue(rendered.contains("FAIRNESS               assumed: the OS scheduler"), rendered);
    }

    @Test
    void aManifestMustNameEveryClause() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new AssumptionManifest(Profile.HOSTED,
                AssumptionManifest.Authority.SOVEREIGN, Map.of(Clause.FAIRNESS, new Discharge.Discharged("x"))));
        assertEquals("a manifest names every clause; missing TURN_DISCIPLINE, CONTROL_PLANE_IMMUNITY, ADMISSION", refused.getMessage());
    }
}
