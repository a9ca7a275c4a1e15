# -*- coding: utf-8 -*-
# Shared by the shortstroke modules: the global options every command takes
# and running the program with -J.
import json

GLOBAL_ARGS = dict(
    bin=dict(type='str', default='shortstroke'),
    rig=dict(type='path'),
    demo=dict(type='bool', default=False),
    state_dir=dict(type='path'),
    protect_file=dict(type='path'),
    sysroot=dict(type='path'),
)


def base_cmd(module):
    p = module.params
    cmd = [module.get_bin_path(p['bin'], required=True) if '/' not in p['bin'] else p['bin']]
    if p['demo']:
        cmd.append('--demo')
    for key, opt in (('rig', '--rig'), ('state_dir', '--state-dir'),
                     ('protect_file', '--protect-file'), ('sysroot', '--sysroot')):
        if p[key]:
            cmd += [opt, p[key]]
    return cmd


def run_json(module, cmd, ok_codes):
    """Run cmd; return (rc, parsed JSON). Fails the task when the exit code
    is not in ok_codes and no JSON came back, with what the program said."""
    rc, out, err = module.run_command(cmd)
    try:
        data = json.loads(out) if out.strip() else None
    except ValueError:
        data = None
    if data is None and rc not in ok_codes:
        module.fail_json(msg=(err.strip() or out.strip() or 'shortstroke exited %d' % rc),
                         rc=rc, cmd=cmd, stderr=err)
    if data is None:
        module.fail_json(msg='shortstroke printed no JSON', rc=rc, cmd=cmd, stdout=out,
                         stderr=err)
    return rc, data, err


def failed_checks(disk):
    """The reasons a disk of `qualify -J` failed: its error, then each
    failed check as "check: detail"."""
    why = ['%s: %s' % (name, c.get('detail', ''))
           for name, c in (disk.get('checks') or {}).items() if c.get('result') == 'FAIL']
    if disk.get('error'):
        why.insert(0, disk['error'])
    return why
