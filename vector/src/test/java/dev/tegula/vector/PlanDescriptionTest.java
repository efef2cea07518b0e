package dev.tegula.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.vector.plan.LoopNest;
import dev.tegula.core.ArrayShape;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code RelayoutPlan.describe()} reads as a sentence, not a record dump. */
class PlanDescriptionTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "f32[4,8]{1,0}           | f32[4,8]{0,1}",
            "f32[64,256]{1,0}        | f32[64,256]{1,0:T(8,128)}",
            "bf16[16,32]{1,0:T(8,16)(2,1)} | bf16[16,32]{0,1}",
            "f32[5]{0}               | f32[5]{0}",
    })
    void readsAsASentence(String from, String to) {
        RelayoutPlan plan = Relayout.plan(ArrayShape.parse(from), ArrayShape.parse(to));
        String d = plan.describe();
        assertFalse(d.contains("[J@") || d.contains("LoopNest[") || d.contains("="  + "["), d);
        assertTrue(d.startsWith("copy ") || d.matches("\\d+ loop nests: \\(1\\) copy .*"), d);
        assertTrue(d.contains(" element"), d);
        assertTrue(d.contains("destination slot"), d);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"f32[4,8]{1,0} | f32[4,8]{0,1} | 32"})
    void countsTheElements(String from, String to, long elements) {
        String d = Relayout.plan(ArrayShape.parse(from), ArrayShape.parse(to)).describe();
        assertTrue(d.contains(" = " + elements + " elements"), d);
        assertEquals(d, Relayout.plan(ArrayShape.parse(from), ArrayShape.parse(to)).describe());
    }
}
