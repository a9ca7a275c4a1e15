# -*- coding: utf-8 -*-
# Copyright: shortstroke contributors
# GNU General Public License v2.0 or later (see https://www.gnu.org/licenses/gpl-2.0.txt)
"""Shared by the shortstroke modules: the global options every command takes
(documented by the doc fragment shortstroke.disks.globals), the module made
with them, the command line they start, and running the program with -J."""

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json

from ansible.module_utils.basic import AnsibleModule

GLOBAL_ARGS = dict(
    bin=dict(type='str', default='shortstroke'),
    rig=dict(type='path'),
    demo=dict(type='bool', default=False),
    state_dir=dict(type='path'),
    protect_file=dict(type='path'),
    sysroot=dict(type='path'),
)


def shortstroke_module(argument_spec, **kwargs):
    """An AnsibleModule with the module's own options and the global ones;
    every shortstroke module supports check mode."""
    spec = dict(argument_spec)
    spec.update(GLOBAL_ARGS)
    return AnsibleModule(argument_spec=spec, supports_check_mode=True, **kwargs)


def base_cmd(module):
    """The program and the global options, as a list to append a command to."""
    p = module.params
    cmd = [module.get_bin_path(p['bin'], required=True) if '/' not in p['bin'] else p['bin']]
    if p['demo']:
        cmd.append('--demo')
    for key, opt in (('rig', '--rig'), ('state_dir', '--state-dir'),
                     ('protect_file', '--protect-file'), ('sysroot', '--sysroot')):
        if p[key]:
            cmd += [opt, p[key]]
    return cmd


def cli_errors(text):
    """What the program said went wrong: its "shortstroke: ..." lines of
    stderr (the other lines are progress and plans), else all of it."""
    lines = [x for x in text.splitlines() if x.startswith('shortstroke:')]
    return ' | '.join(lines) if lines else text.strip()


def run_json(module, cmd, ok_codes):
    """Run cmd; return (rc, parsed JSON, stderr). Fails the task when no JSON
    came back: with what the program said when the exit code is not in
    ok_codes (a usage error prints no JSON)."""
    rc, out, err = module.run_command(cmd)
    try:
        data = json.loads(out) if out.strip() else None
    except ValueError:
        data = None
    if data is None and rc not in ok_codes:
        module.fail_json(msg=(cli_errors(err) or out.strip() or 'shortstroke exited %d' % rc),
                         rc=rc, cmd=cmd, stderr=err, changed=False)
    if data is None:
        module.fail_json(msg='shortstroke printed no JSON', rc=rc, cmd=cmd, stdout=out,
                         stderr=err, changed=False)
    return rc, data, err


def failed_checks(disk):
    """The reasons a disk of `qualify -J` failed: its error, then each
    failed check as "check: detail"."""
    why = ['%s: %s' % (name, c.get('detail', ''))
           for name, c in (disk.get('checks') or {}).items() if c.get('result') == 'FAIL']
    if disk.get('error'):
        why.insert(0, disk['error'])
    return why


def write_if_changed(path, text, check_mode):
    """Write text to path unless it holds that already; in check mode write
    nothing. Returns whether the file changed (would change)."""
    try:
        with open(path) as f:
            if f.read() == text:
                return False
    except (IOError, OSError):
        pass
    if not check_mode:
        with open(path, 'w') as f:
            f.write(text)
    return True
