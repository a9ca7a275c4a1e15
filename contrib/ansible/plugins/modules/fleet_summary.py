#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: shortstroke contributors
# GNU General Public License v2.0 or later (see https://www.gnu.org/licenses/gpl-2.0.txt)

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
module: fleet_summary
short_description: One summary of a fleet's qualification
description:
  - Runs on the controller after the hosts' reports were fetched to I(dir)/HOST/qualify.json
    and I(dir)/HOST/qualify.html. Writes I(dir)/fleet.json and a self-contained
    I(dir)/fleet.html, a table of host, disk, verdict and reasons, each host linked to its
    own report.
  - A host with no report (its qualification could not run) is a row of its own, failed.
  - A report that another host wrote (its C(written_for_host) is not the host's name) is not
    taken as the host's. It is a failed row that says the hosts share one report directory
    on one machine, as hosts on C(connection=local) do in a rehearsal when each is not given
    its own I(shortstroke_report_dir).
  - The files are written only when their content changes, and C(changed) says so. The
    page's time is the newest report's, so the same reports give the same page.
version_added: 1.0.0
author: shortstroke contributors (@shortstroke)
options:
  dir:
    description: The controller's directory holding one directory of fetched reports per host.
    type: path
    required: true
  hosts:
    description: The hosts of the play (C(ansible_play_hosts_all)), in the order of the table.
    type: list
    elements: str
    required: true
attributes:
  check_mode:
    support: full
    description: Nothing is written; C(changed) says whether the summary would change.
seealso:
  - module: shortstroke.disks.qualify
'''

EXAMPLES = r'''
- name: Fleet summary of the fetched reports
  shortstroke.disks.fleet_summary:
    dir: "{{ playbook_dir }}/shortstroke-reports"
    hosts: "{{ ansible_play_hosts_all }}"
  delegate_to: localhost
  run_once: true
'''

RETURN = r'''
json:
  description: The summary as JSON (hosts, failed_hosts, disks, passed, failed).
  returned: always
  type: str
  sample: /home/admin/play/shortstroke-reports/fleet.json
html:
  description: The self-contained page.
  returned: always
  type: str
  sample: /home/admin/play/shortstroke-reports/fleet.html
failed_hosts:
  description: The hosts with a failed disk, no report or another host's report.
  returned: always
  type: list
  elements: str
  sample: [h2]
passed_count:
  description: The disks that passed.
  returned: always
  type: int
  sample: 4
failed_count:
  description: The rows that did not pass (failed disks, hosts without their own report).
  returned: always
  type: int
  sample: 1
'''

import datetime
import html
import json
import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.shortstroke.disks.plugins.module_utils.shortstroke import (
    failed_checks, write_if_changed)


def no_report(host, why):
    return [dict(host=host, device=None, model=None, serial=None, verdict='NO REPORT',
                 reasons=[why], report=None)]


def host_rows(d, host):
    """The rows of one host's fetched report, and the report's time (0: none)."""
    path = os.path.join(d, host, 'qualify.json')
    try:
        with open(path) as f:
            data = json.load(f)
        mtime = os.path.getmtime(path)
    except (IOError, OSError, ValueError) as e:
        return no_report(host, 'no qualification report: %s' % e), 0
    owner = data.get('written_for_host')
    if owner is not None and owner != host:
        return no_report(host, 'the report fetched for %s was written for %s: the hosts share '
                         'one report directory on one machine; give each host its own '
                         'shortstroke_report_dir' % (host, owner)), mtime
    report = '%s/qualify.html' % host if os.path.exists(
        os.path.join(d, host, 'qualify.html')) else None
    rows = []
    for x in data.get('disks', []):
        rows.append(dict(host=host, device=x.get('device'), model=x.get('model'),
                         serial=x.get('serial'), verdict=x.get('verdict'),
                         reasons=failed_checks(x), report=report))
    return rows, mtime


# The page in the style of qualify's own report (src/ops/report_html.c): the
# same palette, tables and PASS/FAIL marks, one self-contained file with no
# scripts, and print CSS that keeps tables whole.
CSS = (
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:24px;"
    "color:#1d2330;background:#fff;max-width:1180px}"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;"
    "border-bottom:1px solid #d5d9e0;padding-bottom:4px}"
    ".meta{color:#5b6577;font-size:13px;margin-bottom:16px}"
    "table{border-collapse:collapse;font-size:13px;margin:6px 0}"
    "th,td{border:1px solid #d5d9e0;padding:4px 8px;text-align:left;vertical-align:top}"
    "th{background:#f1f3f7}"
    "td.pass,span.pass{background:#dff3e3;color:#17612b;font-weight:600}"
    "td.fail,span.fail{background:#fbe0e0;color:#9b1c1c;font-weight:600}"
    "span.pass,span.fail{padding:2px 8px;border-radius:4px;font-size:13px}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "td.reason{font-size:12px;color:#4a5468;max-width:520px}"
    ".bar{display:inline-block;height:10px;background:#fbe0e0;border-radius:2px;"
    "vertical-align:-1px}"
    ".bar span{display:block;height:10px;background:#86d39a;border-radius:2px}"
    "@media print{body{margin:0;max-width:none;font-size:11px}"
    "table,tr{break-inside:avoid;page-break-inside:avoid}"
    "h2{break-after:avoid;page-break-after:avoid}a{color:inherit;text-decoration:none}}"
)

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Fleet qualification</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>%(css)s</style>
</head>
<body>
<h1>Fleet qualification</h1>
<div class="meta">shortstroke qualify on %(nhosts)d host%(hs)s; %(summary)s; reports of %(time)s,
summed up by shortstroke.disks.fleet_summary</div>
<h2>Hosts</h2>
<table><thead><tr><th>Host</th><th>Disks</th><th>Passed</th><th>Failed</th><th></th>
<th>Result</th></tr></thead>
<tbody>
%(hosts)s
</tbody></table>
<h2>Disks</h2>
<table><thead><tr><th>Host</th><th>Disk</th><th>Model</th><th>Serial</th><th>Verdict</th>
<th>Reason</th></tr></thead>
<tbody>
%(rows)s
</tbody></table>
</body>
</html>
"""


def page(rows, hosts, failed_hosts, when):
    e = html.escape
    out = []
    for r in rows:
        host = e(r['host'])
        if r['report']:
            host = '<a href="%s">%s</a>' % (e(r['report']), host)
        verdict = r['verdict'] or ''
        cls = 'pass' if verdict == 'PASS' else 'fail'
        reasons = '<br>'.join(e(x) for x in r['reasons']) or \
            ('all checks passed' if verdict == 'PASS' else '')
        out.append('<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td>'
                   '<td class="%s">%s</td><td class="reason">%s</td></tr>' % (
                       host, e(r['device'] or ''), e(r['model'] or ''), e(r['serial'] or ''),
                       cls, e(verdict), reasons))
    per_host = []
    for h in hosts:
        mine = [r for r in rows if r['host'] == h]
        disks = [r for r in mine if r['device']]
        ok = len([r for r in disks if r['verdict'] == 'PASS'])
        bad = len(mine) - ok
        link = next((r['report'] for r in mine if r['report']), None)
        name = '<a href="%s">%s</a>' % (e(link), e(h)) if link else e(h)
        width = 120 if disks else 0
        fill = 120 * ok // len(disks) if disks else 0
        per_host.append('<tr><td>%s</td><td class="num">%d</td><td class="num">%d</td>'
                        '<td class="num">%d</td><td><span class="bar" style="width:%dpx">'
                        '<span style="width:%dpx"></span></span></td>'
                        '<td class="%s">%s</td></tr>' % (
                            name, len(disks), ok, bad, width, fill,
                            'fail' if h in failed_hosts else 'pass',
                            'FAIL' if h in failed_hosts else 'PASS'))
    ndisks = len([r for r in rows if r['device']])
    nfailed = len([r for r in rows if r['verdict'] != 'PASS'])
    summary = '%d disk%s, <span class="%s">%d failed</span>; hosts with a failure: %s' % (
        ndisks, '' if ndisks == 1 else 's', 'fail' if nfailed else 'pass', nfailed,
        e(', '.join(failed_hosts)) or 'none')
    return PAGE % dict(css=CSS, nhosts=len(hosts), hs='' if len(hosts) == 1 else 's',
                       summary=summary, hosts='\n'.join(per_host), rows='\n'.join(out),
                       time=e(when))


def main():
    module = AnsibleModule(argument_spec=dict(dir=dict(type='path', required=True),
                                              hosts=dict(type='list', elements='str',
                                                         required=True)),
                           supports_check_mode=True)
    d, hosts = module.params['dir'], module.params['hosts']
    rows, newest = [], 0
    for h in hosts:
        r, t = host_rows(d, h)
        rows += r
        newest = max(newest, t)
    failed_hosts = sorted({r['host'] for r in rows if r['verdict'] != 'PASS'})
    summary = dict(hosts=hosts, failed_hosts=failed_hosts, disks=rows,
                   passed=len([r for r in rows if r['verdict'] == 'PASS']),
                   failed=len([r for r in rows if r['verdict'] != 'PASS']))
    when = datetime.datetime.utcfromtimestamp(newest).strftime('%Y-%m-%d %H:%M UTC') \
        if newest else 'no report'
    paths = dict(json=os.path.join(d, 'fleet.json'), html=os.path.join(d, 'fleet.html'))
    if not module.check_mode and not os.path.isdir(d):
        os.makedirs(d)
    changed = write_if_changed(paths['json'], json.dumps(summary, indent=2) + '\n',
                               module.check_mode)
    changed = write_if_changed(paths['html'], page(rows, hosts, failed_hosts, when),
                               module.check_mode) or changed
    module.exit_json(changed=changed, json=paths['json'], html=paths['html'],
                     failed_hosts=failed_hosts, passed_count=summary['passed'],
                     failed_count=summary['failed'])


if __name__ == '__main__':
    main()
