#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: shortstroke contributors
# GNU General Public License v2.0 or later (see https://www.gnu.org/licenses/gpl-2.0.txt)

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
module: qualify
short_description: Qualify disks with shortstroke qualify
description:
  - Runs C(shortstroke qualify -J --report REPORT) on the named disks, or on every free disk
    of the host (as C(shortstroke list) shows them; in-use and protected disks are left out)
    when none are named. The qualification reads the disks only.
  - Writes the JSON to I(json_path) and the HTML report to I(report_path) on the host, for
    M(ansible.builtin.fetch). C(changed) says whether those files changed.
  - The task's C(rc) is the program's exit code, as M(ansible.builtin.command) returns it,
    so a disk that fails qualification (C(rc) 1 or 4) fails the task like any command that
    exits non-zero; the reports are written all the same, and C(failed_disks) and C(reasons)
    say which disks failed and why. To fetch the reports first, set C(failed_when) on
    C(failed_disks is not defined) (a qualification that could not run returns no
    C(failed_disks)), as the role's qualify tasks do, which then fail the host with the
    reasons.
  - I(host) is written into the JSON report, so that M(shortstroke.disks.fleet_summary) can
    tell a report that another host wrote (two hosts sharing one report directory on one
    machine) from the host's own.
version_added: 1.0.0
author: shortstroke contributors (@shortstroke)
options:
  disks:
    description: The disks to qualify; empty, every free disk of the host.
    type: list
    elements: str
    default: []
  profile:
    description: The qualification profile (C(shortstroke qualify --help) says what each runs).
    type: str
    default: quick
    choices: [quick, standard, full]
  thresholds:
    description: A thresholds file on the host (C(--thresholds)).
    type: path
  report_path:
    description: Where the HTML report is written on the host.
    type: path
    required: true
  json_path:
    description: Where the JSON result is written on the host.
    type: path
    required: true
  host:
    description: The name the report is written for (the role passes C(inventory_hostname)).
    type: str
extends_documentation_fragment:
  - shortstroke.disks.globals
attributes:
  check_mode:
    support: full
    description: Nothing is run on a disk and no report is written; C(disks) lists the disks that would be qualified.
seealso:
  - module: shortstroke.disks.fleet_summary
'''

EXAMPLES = r'''
- name: Qualify every free disk with the standard profile
  shortstroke.disks.qualify:
    profile: standard
    report_path: /var/tmp/shortstroke/qualify.html
    json_path: /var/tmp/shortstroke/qualify.json
    host: "{{ inventory_hostname }}"
  register: q

- name: Qualify two disks against local thresholds; a failed disk fails the task later
  shortstroke.disks.qualify:
    disks: [/dev/sdb, /dev/sdc]
    thresholds: /etc/shortstroke/thresholds.json
    report_path: /root/burnin.html
    json_path: /root/burnin.json
  register: burnin
  failed_when: burnin.failed_disks is not defined
'''

RETURN = r'''
rc:
  description: The exit code of C(shortstroke qualify) (0 every disk passed, 1 every disk failed, 4 some failed).
  returned: when the qualification ran (not in check mode)
  type: int
  sample: 4
cmd:
  description: The command run (in check mode, the one that would run).
  returned: always
  type: list
  elements: str
  sample: [/usr/bin/shortstroke, qualify, -J, --profile, quick, --report, /var/tmp/shortstroke/qualify.html, /dev/sdb]
disks:
  description: Per disk, its device, model, serial, verdict and reasons (in check mode, the devices only).
  returned: always
  type: list
  elements: dict
  sample: [{device: /dev/sdb, model: WDC WD20EFRX-68EUZN0, serial: WD-WCC4M1234567, verdict: FAIL, reasons: ["smart: FAILED: SMART health"]}]
failed_disks:
  description: The devices that failed.
  returned: always
  type: list
  elements: str
  sample: [/dev/sdb]
reasons:
  description: One line per failed disk, C(device (model serial) check - detail).
  returned: always
  type: list
  elements: str
passed:
  description: Whether every disk passed.
  returned: when the qualification ran
  type: bool
profile:
  description: The profile that ran.
  returned: when the qualification ran
  type: str
  sample: quick
'''

import json
import os

from ansible_collections.shortstroke.disks.plugins.module_utils.shortstroke import (
    base_cmd, failed_checks, run_json, shortstroke_module, write_if_changed)


def main():
    args = dict(
        disks=dict(type='list', elements='str', default=[]),
        profile=dict(type='str', default='quick', choices=['quick', 'standard', 'full']),
        thresholds=dict(type='path'),
        report_path=dict(type='path', required=True),
        json_path=dict(type='path', required=True),
        host=dict(type='str'),
    )
    module = shortstroke_module(args)
    p = module.params
    disks = p['disks']
    if not disks:
        dummy, lst, dummy2 = run_json(module, base_cmd(module) + ['list', '-J'], (0,))
        disks = [d['device'] for d in lst.get('drives', [])
                 if str(d.get('state', '')).startswith('free')]
        if not disks:
            module.fail_json(msg='no free disk to qualify on this host', changed=False)
    cmd = base_cmd(module) + ['qualify', '-J', '--profile', p['profile'],
                              '--report', p['report_path']]
    if p['thresholds']:
        cmd += ['--thresholds', p['thresholds']]
    cmd += disks
    if module.check_mode:
        module.exit_json(changed=True, cmd=cmd, disks=[dict(device=d) for d in disks],
                         failed_disks=[], reasons=[],
                         msg='check mode: would qualify %s; nothing run' % ', '.join(disks))
    for path in (p['report_path'], p['json_path']):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    try:
        with open(p['report_path']) as f:
            old_report = f.read()
    except (IOError, OSError):
        old_report = None
    rc, data, err = run_json(module, cmd, (0, 1, 4))
    if p['host']:
        data['written_for_host'] = p['host']
    changed = write_if_changed(p['json_path'], json.dumps(data, indent=2) + '\n', False)
    try:
        with open(p['report_path']) as f:
            changed = changed or f.read() != old_report
    except (IOError, OSError):
        pass
    rows, reasons = [], []
    for d in data.get('disks', []):
        why = failed_checks(d)
        rows.append(dict(device=d.get('device'), model=d.get('model'), serial=d.get('serial'),
                         verdict=d.get('verdict'), reasons=why))
        if d.get('verdict') != 'PASS':
            reasons.append('%s (%s %s): %s' % (d.get('device'), d.get('model'),
                                               d.get('serial'), '; '.join(why) or 'failed'))
    failed = [r['device'] for r in rows if r['verdict'] != 'PASS']
    module.exit_json(changed=changed, rc=rc, cmd=cmd, disks=rows, failed_disks=failed,
                     reasons=reasons, passed=data.get('passed'), profile=data.get('profile'))


if __name__ == '__main__':
    main()
