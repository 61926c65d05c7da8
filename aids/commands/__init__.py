"""What a user runs: the command line (cli), the live preview (serve), what a build reports (report) and the
scaffolding of projects and aids (scaffold). Above everything else: nothing below imports these."""
