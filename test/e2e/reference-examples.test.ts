import { markdownFiles, runExamples } from './examples';

/** Every example of the generated command reference (each command's `--help` examples) runs as a test. */
runExamples(markdownFiles('docs/reference'));
