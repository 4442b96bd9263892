import { sameAnswer } from './check-answers.job';

describe('sameAnswer (issue 35 item 3)', () => {
  it('sets aside the source footer, emphasis, case and spacing', () => {
    expect(
      sameAnswer(
        'Electric bikes cost 50 dollars per day since May.\n\n— *added by you*',
        'Electric bikes cost 50 dollars per day since May.',
      ),
    ).toBe(true);
    expect(
      sameAnswer('Rentals cost **25 dollars**  per day.\n\n— *Prices, page 2*', 'rentals cost 25 dollars per day.'),
    ).toBe(true);
  });

  it('counts an approved answer given inside a longer one, but not a bare word', () => {
    expect(
      sameAnswer('Hello! Rentals cost 25 dollars per day, helmet included.', 'Rentals cost 25 dollars per day'),
    ).toBe(true);
    expect(sameAnswer('Yes, but only on weekdays and never on holidays.', 'Yes')).toBe(false);
  });

  it('tells a changed figure or another answer apart', () => {
    expect(sameAnswer('Electric bikes cost 45 dollars per day.', 'Electric bikes cost 50 dollars per day.')).toBe(
      false,
    );
    expect(sameAnswer("Sorry, I can't find anything about that.", 'Electric bikes cost 50 dollars per day.')).toBe(
      false,
    );
  });
});
