# -*- coding: utf-8 -*-
# Copyright: shortstroke contributors
# GNU General Public License v2.0 or later (see https://www.gnu.org/licenses/gpl-2.0.txt)
"""The options every shortstroke module takes: shortstroke's global options."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type


class ModuleDocFragment(object):
    DOCUMENTATION = r'''
options:
  bin:
    description:
      - The shortstroke program on the host, a name looked up on C(PATH) or a path.
    type: str
    default: shortstroke
  rig:
    description:
      - A rig of simulated drives (JSON, see C(docs/simulator.md)), C(--rig).
        For rehearsals and tests; drives are then named C(sim:ID).
    type: path
  demo:
    description:
      - Use the built-in demo rig of simulated drives, C(--demo).
    type: bool
    default: false
  state_dir:
    description:
      - The state directory (the journal of every capacity change), C(--state-dir).
        Unset, the one of C(/etc/shortstroke/shortstroke.conf), else C(/var/lib/shortstroke).
    type: path
  protect_file:
    description:
      - Disks never to touch (serials or WWNs), C(--protect-file).
        Unset, the one of C(/etc/shortstroke/shortstroke.conf), else
        C(/etc/shortstroke/protect.conf). A file named here must exist.
    type: path
  sysroot:
    description:
      - Read sysfs, C(/dev) and C(/proc) under this directory, C(--sysroot) (tests).
    type: path
requirements:
  - shortstroke on the host (the Debian package C(shortstroke), or C(make install))
'''
