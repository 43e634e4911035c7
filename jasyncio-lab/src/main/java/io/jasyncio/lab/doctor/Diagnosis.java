package io.jasyncio.lab.doctor;

import java.util.List;

/**
 * One finding about the program's loops, phrased as the lab's claim it matches, with the
 * evidence that triggered it and the cure.
 *
 * @param kind     {@code blocking-call}, {@code no-yield}, {@code cancelled-timers},
 *                 {@code lost-exceptions}, {@code loop-errors} or {@code executor-backlog}
 * @param loop     the loop thread's name
 * @param finding  what was wrong, with the numbers
 * @param cure     what to change
 * @param evidence the records it rests on (stacks, counts), one line each
 */
public record Diagnosis(String kind, String loop, String finding, String cure, List<String> evidence) {
}
