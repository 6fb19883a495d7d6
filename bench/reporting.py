"""What bench/'s reports share: the data files they keep beside the
Markdown (save_data), and their plots, a gnuplot histogram a call
(histogram; no gnuplot, no plot, the report is written all the same)."""
import json
import os
import subprocess
import sys


def save_data(outdir, json_name, summary, csv_name, header, rows):
    """OUTDIR/JSON_NAME: the summary; OUTDIR/CSV_NAME: the raw rows under
    HEADER, as the report read them (so the report can be made again)."""
    with open(os.path.join(outdir, json_name), 'w') as f:
        json.dump(summary, f, indent=2)
    with open(os.path.join(outdir, csv_name), 'w') as f:
        f.write(header + '\n')
        f.writelines(','.join(r) + '\n' for r in rows)


def histogram(outdir, png, rows, series, *, title, ylabel, alt, errorbars=False,
              yrange='0:*', size='900,500', xtics='noenhanced'):
    """Draw OUTDIR/PNG, a histogram of ROWS: (label, values) pairs, one
    cluster a row. SERIES names the bars of a cluster; with ERRORBARS each
    takes three values (the bar, its low and high end), else one. Returns
    the Markdown line that shows the plot, or None if gnuplot failed."""
    dat = os.path.join(outdir, png + '.dat')
    with open(dat, 'w') as f:
        for label, values in rows:
            f.write(f'"{label}" ' + ' '.join(str(v) for v in values) + '\n')
    width = 3 if errorbars else 1
    plots = ', '.join(
        f'"{dat}" using ' + ':'.join(str(2 + width * j + k) for k in range(width))
        + (':xtic(1)' if j == 0 else '') + f' title "{name}"'
        for j, name in enumerate(series))
    style = 'errorbars gap 2 lw 1' if errorbars else 'clustered gap 1'
    gp = f'''set terminal pngcairo size {size}
set output "{os.path.join(outdir, png)}"
set title "{title}" noenhanced
set style data histogram
set style histogram {style}
set style fill solid 0.6 border -1
set ylabel "{ylabel}" noenhanced
set yrange [{yrange}]
set key outside bottom center horizontal
set xtics {xtics}
plot {plots}
'''
    try:
        r = subprocess.run(['gnuplot'], input=gp, text=True, capture_output=True)
        err = r.stderr if r.returncode else None
    except FileNotFoundError:
        err = 'gnuplot not installed'
    os.unlink(dat)
    if err is not None:
        print('gnuplot failed:', err, file=sys.stderr)
        return None
    return f'![{alt}]({png})'
