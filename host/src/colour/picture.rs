//! Solutions as pictures: 24-bit colour on a terminal, and `--png` /
//! `--svg` files (one grid, or two side by side when there are two
//! solutions).

use std::path::Path;

/// One grid to draw: a colour per cell (row-major), `None` when unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<Option<[u8; 3]>>,
}

impl Grid {
    /// A black-and-white grid: filled black, empty white.
    pub fn mono(width: usize, height: usize, cells: &[Option<bool>]) -> Grid {
        let cells = cells
            .iter()
            .map(|c| c.map(|f| if f { [0, 0, 0] } else { [255, 255, 255] }))
            .collect();
        Grid { width, height, cells }
    }
}

/// Colours for inks a file names without a value, in turn.
const FALLBACK: [[u8; 3]; 8] = [
    [220, 50, 47],
    [38, 139, 210],
    [133, 153, 0],
    [211, 54, 130],
    [181, 137, 0],
    [42, 161, 152],
    [108, 113, 196],
    [203, 75, 22],
];

/// The colour to draw palette entry `index` in: its own, or a fallback.
pub fn shade(rgb: Option<[u8; 3]>, index: usize) -> [u8; 3] {
    rgb.unwrap_or(if index == 0 {
        [255, 255, 255]
    } else {
        FALLBACK[(index - 1) % FALLBACK.len()]
    })
}

/// Whether the terminal on stdout shows 24-bit colour and may: not when
/// `NO_COLOR` is set or stdout is not a terminal; yes when `COLORTERM` says
/// truecolor or 24bit.
pub fn terminal_has_truecolour() -> bool {
    use std::io::IsTerminal;
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) || !std::io::stdout().is_terminal() {
        return false;
    }
    std::env::var("COLORTERM").is_ok_and(|v| v == "truecolor" || v == "24bit")
}

/// The grid as terminal lines, each cell two columns of its colour
/// (unknown cells `??`).
pub fn ansi_rows(grid: &Grid) -> Vec<String> {
    grid.cells
        .chunks(grid.width.max(1))
        .map(|row| {
            let mut s = String::new();
            for c in row {
                match c {
                    Some([r, g, b]) => s.push_str(&format!("\x1b[48;2;{r};{g};{b}m  ")),
                    None => s.push_str("\x1b[0m??"),
                }
            }
            s.push_str("\x1b[0m");
            s
        })
        .collect()
}

/// Pixels a cell takes in a picture file: the picture about 600 pixels on
/// its longer side, each cell 4 to 24 pixels.
fn cell_pixels(grids: &[Grid]) -> usize {
    let wide = grids.iter().map(|g| g.width).sum::<usize>() + grids.len().saturating_sub(1);
    let long = wide.max(grids.iter().map(|g| g.height).max().unwrap_or(1)).max(1);
    (600 / long).clamp(4, 24)
}

/// Where each grid starts (in cells) when drawn side by side, one cell apart.
fn offsets(grids: &[Grid]) -> Vec<usize> {
    let mut x = 0;
    grids
        .iter()
        .map(|g| {
            let at = x;
            x += g.width + 1;
            at
        })
        .collect()
}

const UNKNOWN: [u8; 3] = [200, 200, 200];
const BORDER: [u8; 3] = [160, 160, 160];

/// Writes the grids, side by side, as an SVG file.
pub fn write_svg(path: &Path, grids: &[Grid]) -> std::io::Result<()> {
    let px = cell_pixels(grids);
    let width = (grids.iter().map(|g| g.width).sum::<usize>() + grids.len().saturating_sub(1)) * px;
    let height = grids.iter().map(|g| g.height).max().unwrap_or(0) * px;
    let hex = |[r, g, b]: [u8; 3]| format!("#{r:02x}{g:02x}{b:02x}");
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" shape-rendering=\"crispEdges\">\n"
    );
    for (g, x0) in grids.iter().zip(offsets(grids)) {
        for (i, c) in g.cells.iter().enumerate() {
            let (x, y) = ((x0 + i % g.width) * px, (i / g.width) * px);
            s.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{px}\" height=\"{px}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.5\"/>\n",
                hex(c.unwrap_or(UNKNOWN)),
                hex(BORDER)
            ));
        }
    }
    s.push_str("</svg>\n");
    std::fs::write(path, s)
}

/// Writes the grids, side by side, as a PNG file (RGB, 8 bits).
pub fn write_png(path: &Path, grids: &[Grid]) -> std::io::Result<()> {
    let px = cell_pixels(grids);
    let width = (grids.iter().map(|g| g.width).sum::<usize>() + grids.len().saturating_sub(1)) * px;
    let height = grids.iter().map(|g| g.height).max().unwrap_or(0) * px;
    let mut pixels = vec![255u8; width * height * 3];
    for (g, x0) in grids.iter().zip(offsets(grids)) {
        for (i, c) in g.cells.iter().enumerate() {
            let (cx, cy) = (x0 + i % g.width, i / g.width);
            for dy in 0..px {
                for dx in 0..px {
                    // A one-pixel grid line on each cell's top and left.
                    let edge = dx == 0 || dy == 0;
                    let rgb = if edge && px >= 6 {
                        BORDER
                    } else {
                        c.unwrap_or(UNKNOWN)
                    };
                    let at = ((cy * px + dy) * width + cx * px + dx) * 3;
                    pixels[at..at + 3].copy_from_slice(&rgb);
                }
            }
        }
    }
    let file = std::fs::File::create(path)?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width as u32, height as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
    writer.write_image_data(&pixels).map_err(std::io::Error::other)?;
    writer.finish().map_err(std::io::Error::other)?;
    Ok(())
}

/// Writes `--png` and `--svg` files, as asked; `Err` says which failed.
pub fn write_files(png: Option<&Path>, svg: Option<&Path>, grids: &[Grid]) -> Result<(), String> {
    if let Some(path) = png {
        write_png(path, grids).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(path) = svg {
        write_svg(path, grids).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_files_decode_to_the_cells_colours() {
        let grid = Grid {
            width: 2,
            height: 1,
            cells: vec![Some([255, 0, 0]), None],
        };
        let path = std::env::temp_dir().join(format!("nonohost-picture-{}.png", std::process::id()));
        write_png(&path, &[grid]).unwrap();
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        std::fs::remove_file(&path).ok();
        let px = info.width as usize / 2;
        assert_eq!(info.height as usize, px);
        // The middle of each cell.
        let at = |x: usize| ((px / 2) * info.width as usize + x) * 3;
        assert_eq!(&buf[at(px / 2)..at(px / 2) + 3], &[255, 0, 0]);
        assert_eq!(&buf[at(px + px / 2)..at(px + px / 2) + 3], &UNKNOWN);
    }

    #[test]
    fn svg_has_a_rectangle_per_cell() {
        let grid = Grid::mono(
            3,
            2,
            &[Some(true), Some(false), None, Some(true), Some(true), Some(false)],
        );
        let path = std::env::temp_dir().join(format!("nonohost-picture-{}.svg", std::process::id()));
        write_svg(&path, &[grid.clone(), grid]).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).ok();
        assert_eq!(text.matches("<rect").count(), 12);
        assert_eq!(text.matches("fill=\"#000000\"").count(), 6);
    }
}
