import { describe, expect, it } from 'vitest';
import { scanParameters, unframe, type ScanMeter } from './markup-params.js';

describe('scanParameters', () => {
  it('finds both header forms in order and removes them from the leftover', () => {
    const inner = 'a<parameter=x>1</parameter>b<parameter name="y" string="true" >2</parameter>c';
    expect(scanParameters(inner)).toEqual({ params: [{ key: 'x', raw: '1' }, { key: 'y', raw: '2' }], leftover: 'abc' });
  });

  it('skips malformed headers and leaves them in the leftover', () => {
    const inner = '<parameter foo>1</parameter><parameter=>2</parameter><parameter=ok>3</parameter>';
    const scan = scanParameters(inner);
    expect(scan.params).toEqual([{ key: 'ok', raw: '3' }]);
    expect(scan.leftover).toBe('<parameter foo>1</parameter><parameter=>2</parameter>');
  });

  it('ends each value at the first close tag and stops when a header never closes', () => {
    expect(scanParameters('<parameter=a>x</parameter></parameter><parameter=b>open')).toEqual({
      params: [{ key: 'a', raw: 'x' }],
      leftover: '</parameter><parameter=b>open',
    });
  });

  it('examines a linear number of characters on adversarial input', () => {
    const shapes = [
      '<parameter=a>',
      '<parameter name="',
      '<parameter name="a" b="',
      '<parameter name="a" b="c" ',
      '<parameter=a>x</parameter>',
      '<parameter',
      '<parameter name="a"\n',
    ];
    for (const shape of shapes) {
      const steps = (copies: number): number => {
        const meter: ScanMeter = { steps: 0 };
        scanParameters(shape.repeat(copies), meter);
        return meter.steps;
      };
      const small = steps(500);
      const large = steps(4000);
      expect(small, shape).toBeGreaterThan(0);
      expect(large / small, shape).toBeLessThan(8 * 1.2);
    }
  });
});

describe('unframe', () => {
  it('removes exactly one framing line break at each end', () => {
    expect(unframe('\nx\n')).toBe('x');
    expect(unframe('\r\nx\r\n')).toBe('x');
    expect(unframe('\n\nx\n\n')).toBe('\nx\n');
    expect(unframe('\n')).toBe('');
    expect(unframe('x')).toBe('x');
  });
});
