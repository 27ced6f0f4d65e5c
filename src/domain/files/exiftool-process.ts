import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { DefaultExiftoolArgs, exiftoolPath } from 'exiftool-vendored';

/**
 * ExifTool in `-stay_open` mode reads its commands from stdin and, at end of file, sleeps and
 * reads again for ever: when the service dies without ending it (SIGKILL, OOM killer), the Perl
 * process lives on. This guard runs first in that Perl process. It forks a watcher that relays
 * stdin to ExifTool through a pipe; when the service's end closes (its process is gone), the
 * watcher ends ExifTool and itself. The parent then becomes ExifTool by exec, so the pid the
 * library tracks, signals and health-checks is ExifTool's own. Every 2 s the watcher also
 * checks that ExifTool is still its parent, so it never outlives it either.
 */
const GUARD = String.raw`
use strict; use warnings; use POSIX ();
my ($tool, @args) = @ARGV;
pipe(my $from_watcher, my $to_tool) or die "pipe: $!";
my $tool_pid = $$;
my $watcher = fork();
die "fork: $!" unless defined $watcher;
if ($watcher == 0) {
  close $from_watcher;
  open(STDOUT, '>', '/dev/null'); open(STDERR, '>', '/dev/null');
  $SIG{ALRM} = sub { POSIX::_exit(0) if getppid() != $tool_pid; alarm 2 };
  alarm 2;
  my $buf;
  while (1) {
    my $n = sysread(STDIN, $buf, 65536);
    if (!defined $n) { next if $!{EINTR}; last }
    last if $n == 0;
    my $off = 0;
    while ($off < $n) {
      my $w = syswrite($to_tool, $buf, $n - $off, $off);
      if (!defined $w) { next if $!{EINTR}; POSIX::_exit(0) }
      $off += $w;
    }
  }
  kill 'TERM', $tool_pid if getppid() == $tool_pid;
  POSIX::_exit(0);
}
close $to_tool;
open(STDIN, '<&', $from_watcher) or die "stdin: $!";
close $from_watcher;
exec { $^X } $^X, $tool, @args or die "exec: $!";
`;

/** The Perl the library would use: the one of its shebang line, else the first on the PATH. */
function perl(): string {
  return existsSync('/usr/bin/perl') ? '/usr/bin/perl' : 'perl';
}

/**
 * A `processFactory` for exiftool-vendored that starts ExifTool behind the guard above, with the
 * library's own arguments and environment. Windows runs a bundled exiftool.exe with no Perl
 * fork, so there the library's default stays (undefined).
 */
export function guardedExiftool(): (() => Promise<ChildProcess>) | undefined {
  if (process.platform === 'win32') return undefined;
  return async () =>
    spawn(perl(), ['-e', GUARD, '--', await exiftoolPath(), ...DefaultExiftoolArgs], {
      stdio: 'pipe',
      shell: false,
      detached: false,
      // As the library spawns it; `perl` without a path is still found on the service's PATH.
      env: { LANG: 'C' },
    });
}
