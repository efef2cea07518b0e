/**
 * A program that uses Tegula as a library would: from the installed artifacts, on the module path.
 * These two lines are the ones the README's "Use it in your build" section gives.
 */
module dev.tegula.example.consumer {
    requires dev.tegula.io;
    requires dev.tegula.vector;
}
